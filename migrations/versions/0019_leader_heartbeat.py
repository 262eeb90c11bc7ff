"""When the leader was last known to be alive, so a restart can stop the clocks for the downtime.

``leader_heartbeat``: one row (``id`` 1), ``at`` written by the leader every few seconds and when
it stops (``app/services/leader/downtime.py``).  A new leader that finds it old by more than a few
beats moves every running game's move deadlines on by the gap: nobody's clock runs while no
server does.  No row (every database before this revision, until its first start on it): no gap
is known, so nothing is moved.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leader_heartbeat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leader_heartbeat")
