"""Time control and take-over: per-table seconds per move, per-seat deadlines and take-over reasons.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("move_seconds", sa.Integer(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("takeover", sa.String(16), nullable=True))
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_seats_deadline", "seats", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_seats_deadline", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("deadline")
        batch.drop_column("takeover")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("move_seconds")
