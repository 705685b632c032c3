"""languages: a staff user's own language, an event's default language for its public pages and printouts

Revision ID: f4c7a2e9d1b6
Revises: e3b6d1a8c9f4
Create Date: 2026-12-02 00:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f4c7a2e9d1b6'
down_revision = 'e3b6d1a8c9f4'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('user') as batch:
        batch.add_column(sa.Column('language', sa.String(10), nullable=True))
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('language', sa.String(10), nullable=True))


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_column('language')
    with op.batch_alter_table('user') as batch:
        batch.drop_column('language')
