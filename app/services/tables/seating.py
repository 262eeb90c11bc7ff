"""Who sits where: people, bots, and people whose seat a bot has taken over."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.bots import DEFAULT_LEVEL

BOT_NAMES = ("Ada", "Babak", "Cyra", "Dariush", "Esme", "Farid", "Gul", "Hamid")


def bot_name(seat: int) -> str:
    """The display name of the bot at ``seat``: ``"Ada (bot)"``."""
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} (bot)"


@dataclass(frozen=True)
class SeatInfo:
    """One seat: a person (``account_id``), a bot (``bot_level``), or nobody.

    ``takeover`` (``timeout``, ``left``, ``resigned``, ``away``) means the default bot plays a
    person's seat (Board Game Arena's zombie mode); the person may reclaim it unless
    resigned.  ``deadline`` is when the seat's current move is due under the table's time control.
    ``away_since``: when the person was found away, or None; ``away_deadline``: no
    longer set (always None: no table hands a seat to a bot by itself for being away).
    ``abandoned_from``: in a finished game, the person abandoned it (a bot still played their seat
    at the end): the version from which the bot played; else None.
    """

    seat: int
    account_id: int | None
    name: str | None
    bot_level: str | None = None
    takeover: str | None = None
    deadline: datetime | None = None
    away_since: datetime | None = None
    away_deadline: datetime | None = None
    abandoned_from: int | None = None

    @property
    def empty(self) -> bool:
        """Neither a person nor a bot sits here."""
        return self.account_id is None and self.bot_level is None

    @property
    def played_by_bot(self) -> str | None:
        """The level of the bot that plays this seat now, or None when a person does."""
        return self.bot_level or (DEFAULT_LEVEL if self.takeover else None)
