"""The language an account reads the site, its e-mails and its notices in.

``accounts.language``: a language code the server speaks (``"en"``, ``"fr"``), chosen in the page
header's language chooser or the account settings; null (every account before this revision):
each browser follows its own choice (the chooser's cookie, else its ``Accept-Language``), and
e-mails and push notices are written in English, as before (docs/i18n.md).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
