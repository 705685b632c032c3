"""penalties: warnings, game losses, match losses and disqualifications recorded by staff

Revision ID: 5e1a9c7d3b20
Revises: f4c7a2e9d1b6
Create Date: 2026-12-04 08:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = '5e1a9c7d3b20'
down_revision = 'f4c7a2e9d1b6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'penalty',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('registration_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('infraction', sa.String(length=60), nullable=False),
        sa.Column('round_number', sa.Integer(), nullable=True),
        sa.Column('table_number', sa.Integer(), nullable=True),
        sa.Column('game', sa.Integer(), nullable=True),
        sa.Column('loss', sa.String(length=10), nullable=True),
        sa.Column('note', sa.Text(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=True),
        sa.Column('given_by', sa.String(length=120), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('withdrawn_by', sa.String(length=120), nullable=True),
        sa.Column('withdraw_reason', sa.String(length=1000), nullable=True),
        sa.CheckConstraint("kind in ('warning', 'game_loss', 'match_loss', 'disqualification')",
                           name=op.f('ck_penalty_kind')),
        sa.CheckConstraint("loss is null or loss in ('game', 'match')", name=op.f('ck_penalty_loss')),
        sa.CheckConstraint('game is null or game between 1 and 3', name=op.f('ck_penalty_game')),
        sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_penalty_event_id_event'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['registration_id'], ['registration.id'],
                                name=op.f('fk_penalty_registration_id_registration'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_penalty')),
        sa.UniqueConstraint('event_id', 'key', name='uq_penalty_event_key'),
    )
    with op.batch_alter_table('penalty') as batch:
        batch.create_index(batch.f('ix_penalty_event_id'), ['event_id'], unique=False)
        batch.create_index(batch.f('ix_penalty_registration_id'), ['registration_id'], unique=False)


def downgrade():
    with op.batch_alter_table('penalty') as batch:
        batch.drop_index(batch.f('ix_penalty_registration_id'))
        batch.drop_index(batch.f('ix_penalty_event_id'))
    op.drop_table('penalty')
