"""The game's state stored only every few moves on PostgreSQL's usual move (docs/decisions.md, *State checkpoints*).

``tables.state_version``: the version ``tables.state`` belongs to when the state is a checkpoint
older than ``version`` (the moves after it are in ``moves``); null means ``state`` is at
``version``, as for every row written before.  ``tables.to_act``: while ``state_version`` is set,
the seats to act at ``version``, so the lobby needs no fold; null otherwise.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("state_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("to_act", sa.JSON(), nullable=True))


def downgrade() -> None:
    # An older release reads ``state`` as the state at ``version``: a checkpoint would be a stale state.
    behind = op.get_bind().scalar(sa.text("SELECT count(*) FROM tables WHERE state_version IS NOT NULL"))
    if behind:
        raise RuntimeError(f"{behind} games hold a checkpoint state; move each once through the locking path "
                           "(or finish them) before downgrading below 0015")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("to_act")
        batch.drop_column("state_version")
