"""Administration and accounts people keep: the admin role, bans,
one-time password-reset links, deleted accounts.

The first registered account (the lowest id with a login name) becomes the admin of an existing site.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("admin", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("password_reset_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("password_reset_expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_unique_constraint("uq_accounts_password_reset_hash", ["password_reset_hash"])
    op.execute("UPDATE accounts SET admin = TRUE WHERE id = "
               "(SELECT MIN(id) FROM accounts WHERE login_name IS NOT NULL)")


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_password_reset_hash", type_="unique")
        batch.drop_column("password_reset_expires_at")
        batch.drop_column("password_reset_hash")
        batch.drop_column("deleted_at")
        batch.drop_column("banned_at")
        batch.drop_column("admin")
