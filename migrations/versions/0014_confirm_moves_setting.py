""""Confirm my moves" as an account setting, so it follows the player to every
device.

``accounts.confirm_moves``: true (hold each move for Confirm), false (send it at once), or null
(the device decides: on for touch screens).  Every account starts at null, as every browser did.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("confirm_moves", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("confirm_moves")
