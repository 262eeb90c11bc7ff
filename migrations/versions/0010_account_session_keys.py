"""Session keys: a random key per account, carried by its session cookies (docs/decisions.md, *Session keys*).

Account ids come back after a restore (the backup's sequence goes on from where it was), so a
cookie naming account 6 could log in as whoever is account 6 afterwards; the cookie now also
carries the account's random key, which no other account has.

Accounts that exist before this migration get the empty key, which is what their session cookies,
made before keys existed, carry: nobody is logged out by the upgrade.  Every account created
afterwards gets a random key (``app/db/models.py``, ``new_session_key``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("session_key", sa.String(32), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("session_key")
