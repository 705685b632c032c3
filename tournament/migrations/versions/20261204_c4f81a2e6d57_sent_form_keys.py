"""sent forms: a player's queued result report or vote, sent again after the connection came back, is stored once

Revision ID: c4f81a2e6d57
Revises: 9a4c2e7f1b35
Create Date: 2026-12-04 11:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'c4f81a2e6d57'
down_revision = "9a4c2e7f1b35"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'sent_form',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('actor', sa.String(length=120), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['game_table.id'], name=op.f('fk_sent_form_table_id_game_table'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_sent_form')),
        sa.UniqueConstraint('table_id', 'kind', 'key', name='uq_sent_form_table_kind_key'),
    )


def downgrade():
    op.drop_table('sent_form')
