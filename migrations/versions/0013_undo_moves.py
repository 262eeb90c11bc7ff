"""Taking a move back: each log row says what it is and whether it may be undone.

``moves.kind`` is ``move`` (a move of the rules) or ``undo`` (a seat took back its last move; the
row's ``move`` is ``{"type": "undo", "undoes": seq}``); ``moves.reversible`` is what the ruleset's
``is_reversible`` said when the move was committed.  Rows written before are moves that cannot be
taken back.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("kind", sa.String(8), nullable=False, server_default="move"))
        batch.add_column(sa.Column("reversible", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("reversible")
        batch.drop_column("kind")
