"""results as rows: a table's result revision, every reported version, one row per confirmation

Concurrent confirmations were a read-modify-write of a JSON list on the table
(game_table.confirmed_by) and lost updates; now each is a row. Existing
confirmations become rows for revision 1; existing results become version 1.
Tables of finished rounds count as confirmed (they were accepted when the
round was finished).

Revision ID: 3f2a7c9e1b10
Revises: 60369bdc1e1f
Create Date: 2026-12-01 09:40:00

"""
import json

from alembic import op
import sqlalchemy as sa


revision = '3f2a7c9e1b10'
down_revision = '60369bdc1e1f'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('game_table', sa.Column('result_revision', sa.Integer(), server_default='0', nullable=False))
    op.create_table(
        'result_report',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('actor', sa.String(length=120), nullable=False),
        sa.Column('registration_id', sa.Integer(), nullable=True),
        sa.Column('staff', sa.Boolean(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_result_report_table_id_game_table'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['registration_id'], ['registration.id'],
                                name=op.f('fk_result_report_registration_id_registration'), ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_result_report')),
        sa.UniqueConstraint('table_id', 'revision', name='uq_result_report_table_revision'),
    )
    op.create_table(
        'result_confirmation',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('registration_id', sa.Integer(), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['game_table.id'],
                                name=op.f('fk_result_confirmation_table_id_game_table'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['registration_id'], ['registration.id'],
                                name=op.f('fk_result_confirmation_registration_id_registration'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_result_confirmation')),
        sa.UniqueConstraint('table_id', 'registration_id', 'revision', name='uq_result_confirmation_table_player'),
    )
    op.create_index(op.f('ix_result_confirmation_table_id'), 'result_confirmation', ['table_id'])
    _move_confirmations()
    op.drop_column('game_table', 'confirmed_by')     # SQLite 3.35+ drops a plain column in place


def _move_confirmations():
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT t.id, t.confirmed_by, t.result_state, t.result_by, t.result_at, r.status "
        "FROM game_table t JOIN round r ON r.id = t.round_id WHERE t.result_state IS NOT NULL")).fetchall()
    confirmation = sa.table('result_confirmation', sa.column('table_id'), sa.column('registration_id'),
                            sa.column('revision'), sa.column('at'))
    report = sa.table('result_report', sa.column('table_id'), sa.column('revision'), sa.column('actor'),
                      sa.column('registration_id'), sa.column('staff'), sa.column('result'), sa.column('at'))
    for table_id, confirmed_by, state, by, at, status in rows:
        ids = confirmed_by if isinstance(confirmed_by, list) else json.loads(confirmed_by or "[]")
        for rid in dict.fromkeys(i for i in ids if isinstance(i, int)):
            conn.execute(confirmation.insert().values(table_id=table_id, registration_id=rid, revision=1, at=at))
        conn.execute(report.insert().values(table_id=table_id, revision=1, actor=by or "unknown",
                                            registration_id=None, staff=not (by or "").startswith("player:"),
                                            result={}, at=at))
        conn.execute(sa.text("UPDATE game_table SET result_revision = 1, result_state = :state WHERE id = :id"),
                     {"id": table_id, "state": "confirmed" if status == "finished" else state})


def downgrade():
    op.add_column('game_table', sa.Column('confirmed_by', sa.JSON(), server_default='[]', nullable=False))
    op.drop_index(op.f('ix_result_confirmation_table_id'), table_name='result_confirmation')
    op.drop_table('result_confirmation')
    op.drop_table('result_report')
    op.drop_column('game_table', 'result_revision')
