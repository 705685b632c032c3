"""player cap and waitlist, entry fee note, paid mark

Revision ID: 7c1e4a9b2d60
Revises: a7d3e5c1b9f2
Create Date: 2026-12-04 07:45:00

"""
from alembic import op
import sqlalchemy as sa


revision = '7c1e4a9b2d60'
down_revision = 'a7d3e5c1b9f2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('event') as batch:
        batch.add_column(sa.Column('player_cap', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('entry_fee', sa.String(200), nullable=True))
        batch.create_check_constraint(op.f('ck_event_player_cap'), 'player_cap is null or player_cap between 1 and 50000')
    with op.batch_alter_table('registration') as batch:
        batch.add_column(sa.Column('waitlisted', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('promoted_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('paid_at', sa.DateTime(timezone=True), nullable=True))
        batch.create_index(op.f('ix_registration_event_waitlisted'), ['event_id', 'waitlisted'])


def downgrade():
    with op.batch_alter_table('registration') as batch:
        batch.drop_index('ix_registration_event_waitlisted')
        batch.drop_column('paid_at')
        batch.drop_column('promoted_at')
        batch.drop_column('waitlisted')
    with op.batch_alter_table('event') as batch:
        batch.drop_constraint(op.f('ck_event_player_cap'), type_='check')
        batch.drop_column('entry_fee')
        batch.drop_column('player_cap')
