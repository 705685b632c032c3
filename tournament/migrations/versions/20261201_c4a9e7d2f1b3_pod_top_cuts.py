"""pod top cuts: how seats are set in a cut pod (by seed, or chosen in seed order)

Revision ID: c4a9e7d2f1b3
Revises: b8d3f1e6a2c4
Create Date: 2026-12-01 21:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c4a9e7d2f1b3'
down_revision = 'b8d3f1e6a2c4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('cut_seating', sa.String(10), nullable=False, server_default='seed'))


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_column('cut_seating')
