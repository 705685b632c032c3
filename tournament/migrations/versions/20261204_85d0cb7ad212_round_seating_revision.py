"""round seating revision: seating corrections after publishing are compare-and-set on the round

Revision ID: 85d0cb7ad212
Revises: 5e1a9c7d3b20
Create Date: 2026-12-04 07:40:00

"""
from alembic import op
import sqlalchemy as sa


revision = '85d0cb7ad212'
down_revision = '5e1a9c7d3b20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('round') as batch:
        batch.add_column(sa.Column('seating_revision', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('round') as batch:
        batch.drop_column('seating_revision')
