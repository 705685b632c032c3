"""series: a league of events, its players across events, each finished event's placements

Revision ID: e3b6d1a8c9f4
Revises: d7f2a9c3e5b1
Create Date: 2026-12-02 00:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'e3b6d1a8c9f4'
down_revision = 'd7f2a9c3e5b1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'series',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('organizer_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('scoring', sa.String(length=20), nullable=False),
        sa.Column('points_table', sa.JSON(), nullable=False),
        sa.Column('attendance_points', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("scoring in ('placement', 'event_points')", name=op.f('ck_series_scoring')),
        sa.CheckConstraint('attendance_points >= 0', name=op.f('ck_series_attendance_points')),
        sa.ForeignKeyConstraint(['organizer_id'], ['user.id'], name=op.f('fk_series_organizer_id_user')),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_series')),
    )
    with op.batch_alter_table('series') as batch:
        batch.create_index(batch.f('ix_series_organizer_id'), ['organizer_id'], unique=False)
    op.create_table(
        'series_player',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('series_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('search_key', sa.String(length=200), nullable=False),
        sa.Column('player_id', sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_player_series_id_series'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_series_player')),
        sa.UniqueConstraint('series_id', 'player_id', name='uq_series_player_id'),
    )
    with op.batch_alter_table('series_player') as batch:
        batch.create_index(batch.f('ix_series_player_series_id'), ['series_id'], unique=False)
    op.create_table(
        'series_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('series_id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=True),
        sa.Column('name', sa.String(length=200), nullable=False),
        sa.Column('date', sa.Date(), nullable=True),
        sa.Column('mode', sa.String(length=10), nullable=False),
        sa.Column('decklists_public', sa.Boolean(), nullable=False),
        sa.Column('stats', sa.JSON(), nullable=False),
        sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('recorded_by', sa.String(length=120), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_series_event_event_id_event'),
                                ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['series_id'], ['series.id'], name=op.f('fk_series_event_series_id_series'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_series_event')),
        sa.UniqueConstraint('event_id', name=op.f('uq_series_event_event_id')),
    )
    with op.batch_alter_table('series_event') as batch:
        batch.create_index(batch.f('ix_series_event_series_id'), ['series_id'], unique=False)
    op.create_table(
        'series_result',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('series_event_id', sa.Integer(), nullable=False),
        sa.Column('series_player_id', sa.Integer(), nullable=False),
        sa.Column('candidate_id', sa.Integer(), nullable=True),
        sa.Column('name', sa.String(length=100), nullable=False),
        sa.Column('player_id', sa.String(length=40), nullable=True),
        sa.Column('place', sa.Integer(), nullable=False),
        sa.Column('points', sa.Float(), nullable=False),
        sa.Column('commanders', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['candidate_id'], ['series_player.id'],
                                name=op.f('fk_series_result_candidate_id_series_player'), ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['series_event_id'], ['series_event.id'],
                                name=op.f('fk_series_result_series_event_id_series_event'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['series_player_id'], ['series_player.id'],
                                name=op.f('fk_series_result_series_player_id_series_player'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_series_result')),
        sa.UniqueConstraint('series_event_id', 'series_player_id', name='uq_series_result_player'),
    )
    with op.batch_alter_table('series_result') as batch:
        batch.create_index(batch.f('ix_series_result_series_event_id'), ['series_event_id'], unique=False)
        batch.create_index(batch.f('ix_series_result_series_player_id'), ['series_player_id'], unique=False)
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('series_id', sa.Integer(), nullable=True))
        batch.create_index(batch.f('ix_event_series_id'), ['series_id'], unique=False)
        batch.create_foreign_key(batch.f('fk_event_series_id_series'), 'series', ['series_id'], ['id'],
                                 ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('event') as batch:
        batch.drop_constraint(batch.f('fk_event_series_id_series'), type_='foreignkey')
        batch.drop_index(batch.f('ix_event_series_id'))
        batch.drop_column('series_id')
    op.drop_table('series_result')
    op.drop_table('series_event')
    op.drop_table('series_player')
    op.drop_table('series')
