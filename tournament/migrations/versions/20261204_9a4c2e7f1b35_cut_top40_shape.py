"""cut-stage option: the shape of a pod top 40 (ten pods, or seeds 1-16 waiting while six pods play)

Revision ID: 9a4c2e7f1b35
Revises: 5e2b7c9d1a43
Create Date: 2026-12-04 11:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = '9a4c2e7f1b35'
down_revision = '5e2b7c9d1a43'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('cut_top40', sa.String(12), nullable=False, server_default='ten_pods'))


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_column('cut_top40')
