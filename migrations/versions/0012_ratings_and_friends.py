"""Ratings per game: rated or friendly tables, each person's rating per game, and
every change a rated game made to it.  Friends: who follows whom, who blocked whom, and
invitations to open tables.

Revision ID: 0012
Revises: 0011
Create Date: 2027-01-20
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        # Tables made before ratings existed stay friendly: their games were not played as rated.
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ruleset", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_ruleset", "ratings", ["ruleset"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "account_id", name="uq_rating_changes_table_account"),
    )
    op.create_index("ix_rating_changes_account_ruleset", "rating_changes", ["account_id", "ruleset"])
    for name, first, second in (("follows", "follower_id", "followed_id"), ("blocks", "blocker_id", "blocked_id")):
        op.create_table(
            name,
            sa.Column(first, sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
            sa.Column(second, sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        )
        op.create_index(f"ix_{name}_{second}", name, [second])
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("inviter_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("invitee_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "invitee_id", name="uq_invitations_table_invitee"),
    )
    op.create_index("ix_invitations_invitee_id", "invitations", ["invitee_id"])


def downgrade() -> None:
    op.drop_index("ix_invitations_invitee_id", "invitations")
    op.drop_table("invitations")
    for name, second in (("blocks", "blocked_id"), ("follows", "followed_id")):
        op.drop_index(f"ix_{name}_{second}", name)
        op.drop_table(name)
    op.drop_index("ix_rating_changes_account_ruleset", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_ruleset", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
