"""event state version: bumped by every committed change an event's pages show

Open phones and the projector poll their page with its ETag; the version lets
the server answer 304 (nothing changed) with one indexed read.

Revision ID: 8b61f0c2d9a4
Revises: d4e8a1c7f2b5
Create Date: 2026-12-01 09:40:00

"""
from alembic import op
import sqlalchemy as sa


revision = '8b61f0c2d9a4'
down_revision = 'd4e8a1c7f2b5'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('event', sa.Column('state_version', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    op.drop_column('event', 'state_version')
