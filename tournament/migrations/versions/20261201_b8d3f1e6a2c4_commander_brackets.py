"""Commander Brackets: an event's maximum bracket and pods within brackets, a player's declared bracket, a
decklist's bracket floor

Revision ID: b8d3f1e6a2c4
Revises: a7c9e2d4b6f8
Create Date: 2026-12-01 20:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b8d3f1e6a2c4'
down_revision = 'a7c9e2d4b6f8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('max_bracket', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('bracket_pods', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('registration') as batch:
        batch.add_column(sa.Column('declared_bracket', sa.Integer(), nullable=True))
    with op.batch_alter_table('decklist') as batch:
        batch.add_column(sa.Column('bracket_floor', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('decklist') as batch:
        batch.drop_column('bracket_floor')
    with op.batch_alter_table('registration') as batch:
        batch.drop_column('declared_bracket')
    with op.batch_alter_table('event') as batch:
        batch.drop_column('bracket_pods')
        batch.drop_column('max_bracket')
