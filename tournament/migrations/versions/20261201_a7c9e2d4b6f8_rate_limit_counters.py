"""rate-limit counters shared by every worker (tournament.throttle) replace the failed-login table

Revision ID: a7c9e2d4b6f8
Revises: f1a2b3c4d5e6
Create Date: 2026-12-01 16:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a7c9e2d4b6f8'
down_revision = 'f1a2b3c4d5e6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'rate_limit',
        sa.Column('key', sa.String(255), nullable=False),
        sa.Column('hits', sa.Integer(), nullable=False),
        sa.Column('expires_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('key', name=op.f('pk_rate_limit')),
    )
    op.drop_table('login_attempt')


def downgrade():
    op.create_table(
        'login_attempt',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('address', sa.String(length=64), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_login_attempt')),
    )
    with op.batch_alter_table('login_attempt') as batch_op:
        batch_op.create_index(batch_op.f('ix_login_attempt_address'), ['address'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_attempt_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_login_attempt_name'), ['name'], unique=False)
    op.drop_table('rate_limit')
