"""tracker snapshot: a table's game state kept as one row, next to its event log

Every tap used to fold the whole log (and copy it) and took max(seq) + 1 for
its event, which raced. Now a tap locks the table, reads this row, appends
the event with seq = last_seq + 1 and rewrites this row (revision: a
compare-and-set counter, so a writer that skipped the lock is retried, not
lost). Games started before this revision have no row yet: the first read
builds it by folding their events once.

Revision ID: d4e8a1c7f2b5
Revises: 3f2a7c9e1b10
Create Date: 2026-12-01 12:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'd4e8a1c7f2b5'
down_revision = '3f2a7c9e1b10'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'tracker_game',
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('state', sa.JSON(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('last_seq', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_tracker_game_table_id_game_table'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', name=op.f('pk_tracker_game')),
    )


def downgrade():
    op.drop_table('tracker_game')
