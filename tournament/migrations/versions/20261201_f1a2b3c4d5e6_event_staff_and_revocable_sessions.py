"""staff per event (judges and co-organizers), revocable sessions (a session version per user, disabled
accounts) and API tokens that expire and can be revoked

Revision ID: f1a2b3c4d5e6
Revises: e5b7c3a1f9d2
Create Date: 2026-12-01 15:50:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'f1a2b3c4d5e6'
down_revision = 'e5b7c3a1f9d2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'event_staff',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('role', sa.String(20), nullable=False),
        sa.Column('added_by', sa.String(120), nullable=False),
        sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role in ('judge', 'organizer')", name=op.f('ck_event_staff_role')),
        sa.ForeignKeyConstraint(['event_id'], ['event.id'], name=op.f('fk_event_staff_event_id_event'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_event_staff_user_id_user'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_event_staff')),
        sa.UniqueConstraint('event_id', 'user_id', name='uq_event_staff_member'),
    )
    with op.batch_alter_table('event_staff') as batch:
        batch.create_index(batch.f('ix_event_staff_event_id'), ['event_id'])
        batch.create_index(batch.f('ix_event_staff_user_id'), ['user_id'])
    with op.batch_alter_table('user') as batch:
        batch.add_column(sa.Column('session_version', sa.Integer(), server_default='1', nullable=False))
        batch.add_column(sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('api_token') as batch:
        batch.add_column(sa.Column('expires_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('label', sa.String(80), server_default='', nullable=False))


def downgrade():
    with op.batch_alter_table('api_token') as batch:
        batch.drop_column('label')
        batch.drop_column('revoked_at')
        batch.drop_column('expires_at')
    with op.batch_alter_table('user') as batch:
        batch.drop_column('disabled_at')
        batch.drop_column('session_version')
    op.drop_table('event_staff')
