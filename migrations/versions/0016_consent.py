"""Nothing is played or rated without the person's consent.

``invitations.seat``: the seat an invitation holds for its invitee (a rematch offer holds each
player's own seat; nobody else may take it, and only the invitee's own *Join* seats them there);
null for an invitation to any free seat.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("invitations") as batch:
        batch.add_column(sa.Column("seat", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("invitations") as batch:
        batch.drop_column("seat")
