"""cut-stage options: who goes on from a drawn cut pod, how cut pods are dealt; where the smaller pods go

Revision ID: 5e2b7c9d1a43
Revises: 7c1e4a9b2d60
Create Date: 2026-12-04 09:15:00

"""
from alembic import op
import sqlalchemy as sa


revision = '5e2b7c9d1a43'
down_revision = '7c1e4a9b2d60'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('cut_draw', sa.String(10), nullable=False, server_default='table'))
        batch.add_column(sa.Column('cut_deal', sa.String(10), nullable=False, server_default='snake'))
        batch.add_column(sa.Column('odd_pods', sa.String(10), nullable=False, server_default='low'))


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_column('odd_pods')
        batch.drop_column('cut_deal')
        batch.drop_column('cut_draw')
