"""staff sessions kept on the server: logging out ends that login's cookie everywhere it was copied

Revision ID: a7d3e5c1b9f2
Revises: b3d41e7a9c20
Create Date: 2026-12-04 07:30:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'a7d3e5c1b9f2'
down_revision = 'b3d41e7a9c20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'staff_session',
        sa.Column('id', sa.String(64), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['user.id'], name=op.f('fk_staff_session_user_id_user'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_staff_session')),
    )
    with op.batch_alter_table('staff_session') as batch:
        batch.create_index(batch.f('ix_staff_session_user_id'), ['user_id'], unique=False)
        batch.create_index(batch.f('ix_staff_session_created_at'), ['created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('staff_session') as batch:
        batch.drop_index(batch.f('ix_staff_session_created_at'))
        batch.drop_index(batch.f('ix_staff_session_user_id'))
    op.drop_table('staff_session')
