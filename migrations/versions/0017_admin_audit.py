"""The admin audit and the record of good backups.

``admin_audit``: one row per admin action, from the API or the command line (who, what, on what,
from where, when), so that the actions of both reach the database as well as the server's log;
``logged_at``: when a server process wrote its log line (the leader writes the command line's).

``backup_runs``: one row per backup written, or checked by a restore drill, in full; the
``caravanserai_last_backup_timestamp_seconds`` metric reads the newest.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("via", sa.String(8), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(160), nullable=False),
        sa.Column("logged_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_admin_audit_at", "admin_audit", ["at"])
    op.create_index("ix_admin_audit_logged_at", "admin_audit", ["logged_at"])
    op.create_table(
        "backup_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("file", sa.String(1024), nullable=False),
        sa.Column("revision", sa.String(32), nullable=False),
        sa.Column("rows", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_backup_runs_finished_at", "backup_runs", ["finished_at"])


def downgrade() -> None:
    op.drop_index("ix_backup_runs_finished_at", table_name="backup_runs")
    op.drop_table("backup_runs")
    op.drop_index("ix_admin_audit_logged_at", table_name="admin_audit")
    op.drop_index("ix_admin_audit_at", table_name="admin_audit")
    op.drop_table("admin_audit")
