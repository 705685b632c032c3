"""game tracker events

Revision ID: 7c1e5a9d3b42
Revises: cb39a191ec4d
Create Date: 2026-11-30 04:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = '7c1e5a9d3b42'
down_revision = 'cb39a191ec4d'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'tracker_event',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=30), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.Column('actor', sa.String(length=120), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('undone', sa.Boolean(), nullable=False),
        sa.Column('undone_by', sa.String(length=120), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_tracker_event_table_id_game_table'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tracker_event')),
        sa.UniqueConstraint('table_id', 'seq', name='uq_tracker_event_table_seq'),
    )
    with op.batch_alter_table('tracker_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tracker_event_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('tracker_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tracker_event_table_id'))
    op.drop_table('tracker_event')
