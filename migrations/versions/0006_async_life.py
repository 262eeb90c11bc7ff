"""Games that live for days: a table's pace, and when each seat's person was last seen or went away.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("pace", sa.String(16), nullable=False, server_default="live"))
    # Tables made before paces existed: an hour or more per move was a game played over days.
    op.execute("UPDATE tables SET pace = 'turn_based' WHERE move_seconds >= 3600")
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("connected_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("away_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("away_deadline", sa.DateTime(timezone=True), nullable=True))
    # Everyone seated counts as seen at the upgrade, so nobody is away before they had the chance to return.
    op.execute("UPDATE seats SET seen_at = CURRENT_TIMESTAMP WHERE account_id IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away_deadline")
        batch.drop_column("away_since")
        batch.drop_column("connected_at")
        batch.drop_column("seen_at")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("pace")
