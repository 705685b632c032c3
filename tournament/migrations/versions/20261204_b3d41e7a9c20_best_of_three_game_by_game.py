"""best of three game by game: each game's report (who, when), a match ended at time, the sideboarding minutes

Revision ID: b3d41e7a9c20
Revises: a7d3c91e5b20
Create Date: 2026-12-04 07:40:00

A duel_game row is a reported game from now on: the rows "Start game 2" used to create before a game had a result
(winner NULL, which read as a draw) are removed; the others get the time their table's result was entered.
"""
from alembic import op
import sqlalchemy as sa


revision = 'b3d41e7a9c20'
down_revision = 'a7d3c91e5b20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('duel_game') as batch:
        batch.add_column(sa.Column('reported_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('reported_by', sa.String(120), nullable=True))
    with op.batch_alter_table('game_table') as batch:
        batch.add_column(sa.Column('time_called_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('sideboard_minutes', sa.Integer, nullable=False, server_default='3'))
        batch.create_check_constraint(op.f('ck_event_sideboard_minutes'), 'sideboard_minutes between 1 and 60')
    op.execute("DELETE FROM duel_game WHERE table_id IN (SELECT id FROM game_table WHERE result_state IS NULL)")
    op.execute("UPDATE duel_game SET reported_at = (SELECT result_at FROM game_table "
               "WHERE game_table.id = duel_game.table_id), reported_by = (SELECT result_by FROM game_table "
               "WHERE game_table.id = duel_game.table_id)")


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_constraint(op.f('ck_event_sideboard_minutes'), type_='check')
        batch.drop_column('sideboard_minutes')
    with op.batch_alter_table('game_table') as batch:
        batch.drop_column('time_called_at')
    with op.batch_alter_table('duel_game') as batch:
        batch.drop_column('reported_by')
        batch.drop_column('reported_at')
