"""public address: the address phones open, set from an event's print page (links and QR codes on paper)

Revision ID: a7d3c91e5b20
Revises: 85d0cb7ad212
Create Date: 2026-12-04 07:40:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a7d3c91e5b20'
down_revision = '85d0cb7ad212'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('public_url', sa.String(200), nullable=True))


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_column('public_url')
