"""Table chat and rematches: chat messages, who may read them, and the link between a game and its rematch.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("chat_spectators", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rematch_id", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_tables_rematch_of", "tables", ["rematch_of"], ["id"])
        batch.create_foreign_key("fk_tables_rematch_id", "tables", ["rematch_id"], ["id"])
        # One rematch per game, even when two players ask at the same moment.
        batch.create_unique_constraint("uq_tables_rematch_of", ["rematch_of"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id_id", "chat_messages", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_table_id_id", "chat_messages")
    op.drop_table("chat_messages")
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint("uq_tables_rematch_of", type_="unique")
        batch.drop_constraint("fk_tables_rematch_id", type_="foreignkey")
        batch.drop_constraint("fk_tables_rematch_of", type_="foreignkey")
        batch.drop_column("rematch_id")
        batch.drop_column("rematch_of")
        batch.drop_column("chat_spectators")
