"""round clock and the event's end: a paused round keeps its time left; a table may get extra minutes;
an event may publish its decklists once it has finished; an event has its own time zone and may plan its number of rounds

Revision ID: e5b7c3a1f9d2
Revises: 8b61f0c2d9a4
Create Date: 2026-12-01 13:20:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'e5b7c3a1f9d2'
down_revision = '8b61f0c2d9a4'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('round', sa.Column('paused_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('game_table', sa.Column('extra_minutes', sa.Integer(), server_default='0', nullable=False))
    op.add_column('event', sa.Column('publish_decklists', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('event', sa.Column('timezone', sa.String(64), server_default='UTC', nullable=False))
    op.add_column('event', sa.Column('planned_rounds', sa.Integer(), nullable=True))


def downgrade():
    op.drop_column('event', 'planned_rounds')
    op.drop_column('event', 'timezone')
    op.drop_column('event', 'publish_decklists')
    op.drop_column('game_table', 'extra_minutes')
    op.drop_column('round', 'paused_at')
