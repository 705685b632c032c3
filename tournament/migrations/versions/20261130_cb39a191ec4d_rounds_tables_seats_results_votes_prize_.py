"""rounds, tables, seats, results, votes, prize claims

Revision ID: cb39a191ec4d
Revises: 2a0f05261471
Create Date: 2026-11-30 03:56:04.081207

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'cb39a191ec4d'
down_revision = '2a0f05261471'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('round',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('stage', sa.String(length=20), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('why', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('published_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('ends_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("status in ('draft', 'published', 'finished')", name=op.f('ck_round_status')),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_round_event_id_event'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round')),
    sa.UniqueConstraint('event_id', 'number', name='uq_round_event_number')
    )
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_event_id'), ['event_id'], unique=False)

    op.create_table('game_table',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('result_state', sa.String(length=20), nullable=True),
    sa.Column('result_by', sa.String(length=120), nullable=True),
    sa.Column('result_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('confirmed_by', sa.JSON(), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("kind in ('pod', 'match', 'bye')", name=op.f('ck_game_table_kind')),
    sa.ForeignKeyConstraint(['round_id'], ['round.id'], name=op.f('fk_game_table_round_id_round'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_table')),
    sa.UniqueConstraint('round_id', 'number', name='uq_game_table_round_number')
    )
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_table_round_id'), ['round_id'], unique=False)

    op.create_table('duel_game',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('winner_id', sa.Integer(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint('number between 1 and 3', name=op.f('ck_duel_game_number')),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_duel_game_table_id_game_table'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['winner_id'], ['registration.id'], name=op.f('fk_duel_game_winner_id_registration'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_duel_game')),
    sa.UniqueConstraint('table_id', 'number', name='uq_duel_game_table_number')
    )
    op.create_table('prize_claim',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('condition', sa.String(length=60), nullable=False),
    sa.Column('holder_id', sa.Integer(), nullable=False),
    sa.Column('value', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['holder_id'], ['registration.id'], name=op.f('fk_prize_claim_holder_id_registration'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_prize_claim_table_id_game_table'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_prize_claim')),
    sa.UniqueConstraint('table_id', 'condition', name='uq_prize_claim_table_condition')
    )
    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('registration_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('survived', sa.Boolean(), nullable=True),
    sa.Column('eliminated_order', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['registration_id'], ['registration.id'], name=op.f('fk_seat_registration_id_registration'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['round_id'], ['round.id'], name=op.f('fk_seat_round_id_round'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_seat_table_id_game_table'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat')),
    sa.UniqueConstraint('round_id', 'registration_id', name='uq_seat_round_registration'),
    sa.UniqueConstraint('table_id', 'seat', name='uq_seat_table_seat')
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_registration_id'), ['registration_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_table_id'), ['table_id'], unique=False)

    op.create_table('vote',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('voter_id', sa.Integer(), nullable=False),
    sa.Column('votee_id', sa.Integer(), nullable=False),
    sa.Column('cast_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('voter_id <> votee_id', name=op.f('ck_vote_not_self')),
    sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_vote_table_id_game_table'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['votee_id'], ['registration.id'], name=op.f('fk_vote_votee_id_registration'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['voter_id'], ['registration.id'], name=op.f('fk_vote_voter_id_registration'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_vote')),
    sa.UniqueConstraint('table_id', 'voter_id', name='uq_vote_table_voter')
    )
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('leftover_policy', sa.String(length=10), nullable=False, server_default='threes'))
        batch_op.add_column(sa.Column('top_cut', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('bye_points', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('prize_conditions', sa.JSON(), nullable=False, server_default='[]'))
        batch_op.add_column(sa.Column('hide_votes', sa.Boolean(), nullable=False, server_default=sa.true()))
        batch_op.add_column(sa.Column('standings_seed', sa.BigInteger(), nullable=False, server_default='0'))

    # ### end Alembic commands ###


def downgrade():
    # ### commands auto generated by Alembic - please adjust! ###
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('standings_seed')
        batch_op.drop_column('hide_votes')
        batch_op.drop_column('prize_conditions')
        batch_op.drop_column('bye_points')
        batch_op.drop_column('top_cut')
        batch_op.drop_column('leftover_policy')

    op.drop_table('vote')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_table_id'))
        batch_op.drop_index(batch_op.f('ix_seat_registration_id'))

    op.drop_table('seat')
    op.drop_table('prize_claim')
    op.drop_table('duel_game')
    with op.batch_alter_table('game_table', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_table_round_id'))

    op.drop_table('game_table')
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_event_id'))

    op.drop_table('round')
    # ### end Alembic commands ###
