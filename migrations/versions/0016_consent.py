"""Nothing is played or rated without the person's consent.

``invitations.seat``: the seat an invitation holds for its invitee (a rematch offer holds each
player's own seat; nobody else may take it, and only the invitee's own *Join* seats them there);
null for an invitation to any free seat.

``seats.abandoned_from``: written when a game ends, for each person whose seat a bot still played
then (they resigned, left, ran out of time or stayed away): the version of the bot's first move
of that last stretch (the final version when it made none).  Such a person is ranked last among
the people of the game (``app/services/accounts/ratings.py``) and the result says so; null for everyone
else, and for every game that ended before this revision (recomputing them gives their old numbers).

An untimed table never hands a seat to a bot by itself any more (only a clock the players agreed
to does, or another player's hand-over).  Migration 0006 made every table of before paces "live"
and marked every seated person seen at the upgrade, so a few minutes later the releases between
0006 and this one let a bot take over the seat of each person who had not opened their untimed
game.  Here every such row gets back what its players agreed to: no away deadline is pending any
more, and a seat a bot took over for being away at an untimed running (or abandoned) game goes
back to its person, who is shown away (the others may hand it over again, as at any untimed
table).  A hand-over some player made is undone the same way: the two left the same rows.

A rematch is an offer now; earlier releases seated every player of the finished game at a running
rematch at once.  A running (or abandoned) rematch where someone seated never opened the game
(no socket of theirs was ever written down) and never made a move of their own was never agreed to
by them: it becomes friendly, so its end rates nobody.

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
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("abandoned_from", sa.Integer(), nullable=True))
    op.execute("UPDATE seats SET away_deadline = NULL WHERE away_deadline IS NOT NULL")
    op.execute("UPDATE seats SET takeover = NULL, away_since = COALESCE(away_since, CURRENT_TIMESTAMP) "
               "WHERE takeover = 'away' AND table_id IN "
               "(SELECT id FROM tables WHERE move_seconds IS NULL AND status IN ('running', 'abandoned'))")
    op.execute(sa.text(
        "UPDATE tables SET rated = :friendly WHERE rematch_of IS NOT NULL AND status IN ('running', 'abandoned') "
        "AND EXISTS (SELECT 1 FROM seats WHERE seats.table_id = tables.id AND seats.account_id IS NOT NULL "
        "AND seats.connected_at IS NULL AND NOT EXISTS (SELECT 1 FROM moves WHERE moves.table_id = seats.table_id "
        "AND moves.seat = seats.seat AND moves.client_move_id NOT LIKE 'bot:%' "
        "AND moves.client_move_id NOT LIKE 'timeout:%'))").bindparams(friendly=False))


def downgrade() -> None:
    # The seats given back stay with their people, the rematches made friendly stay so: nothing to restore.
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("abandoned_from")
    with op.batch_alter_table("invitations") as batch:
        batch.drop_column("seat")
