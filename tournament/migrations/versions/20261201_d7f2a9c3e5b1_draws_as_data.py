"""draws as data: a drawn pod's kind; an event's end-of-round procedure and whether it allows intentional draws

Revision ID: d7f2a9c3e5b1
Revises: c4a9e7d2f1b3
Create Date: 2026-12-01 22:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'd7f2a9c3e5b1'
down_revision = 'c4a9e7d2f1b3'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('end_of_round', sa.String(20), nullable=False, server_default='finish_turn'))
        batch.add_column(sa.Column('end_of_round_turns', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('intentional_draws', sa.Boolean(), nullable=False, server_default=sa.true()))
    with op.batch_alter_table('game_table') as batch:
        batch.add_column(sa.Column('draw_kind', sa.String(20), nullable=True))


def downgrade():
    with op.batch_alter_table('game_table') as batch:
        batch.drop_column('draw_kind')
    with op.batch_alter_table('event') as batch:
        batch.drop_column('intentional_draws')
        batch.drop_column('end_of_round_turns')
        batch.drop_column('end_of_round')
