"""The words of a notice, the same for every channel.

One turn: "Your turn in Nimalia (table 12)", leading to the table.  Several
games waiting: a digest, "Your turn in 3 games", naming each, leading to the person's games.
An invitation: "Ana invites you to Nimalia (table 12)", leading to the lobby,
where the invitation waits with *Join* and *Decline* (a private table's invite code stays there,
out of mailboxes).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class WaitingGame:
    """A game waiting for the person: its table, the game's title, the move's deadline (or None),
    and whether this notice is the first to tell of this turn."""

    table_id: int
    title: str
    deadline: datetime | None = None
    new: bool = True

    @property
    def name(self) -> str:
        """``"Nimalia (table 12)"``."""
        return f"{self.title} (table {self.table_id})"

    @property
    def path(self) -> str:
        """The table's page."""
        return f"/tables/{self.table_id}"


@dataclass(frozen=True)
class Notice:
    """One message to one person: ``title`` (the push title, the mail subject), ``lines`` (the body,
    one line per game), ``path`` (where a click leads, on this site), ``tag`` (a later notice with
    the same tag replaces this one on the device), the games it names (none for an invitation), and
    ``reason``: why the person gets it, for the mail's last words ("... asked Caravanserai to tell you
    {reason}")."""

    title: str
    lines: tuple[str, ...]
    path: str
    tag: str
    games: tuple[WaitingGame, ...]
    reason: str = "when it is your turn"


def turn_notice(game: WaitingGame, now: datetime) -> Notice:
    """The notice of one turn."""
    due = due_text(game.deadline, now)
    line = f"It is your move{f', {due}' if due else ''}."
    return Notice(title=f"Your turn in {game.name}", lines=(line,), path=game.path, tag=f"turn-{game.table_id}",
                  games=(game,))


def digest_notice(games: list[WaitingGame], my_games_path: str, now: datetime) -> Notice:
    """The digest of every game that waits, the newly waiting ones first."""
    ordered = sorted(games, key=lambda game: (not game.new, game.table_id))
    lines = []
    for game in ordered:
        due = due_text(game.deadline, now)
        lines.append(f"{game.name}{f', {due}' if due else ''}")
    return Notice(title=f"Your turn in {len(games)} games", lines=tuple(lines), path=my_games_path, tag="digest",
                  games=tuple(ordered))


def invitation_notice(inviter: str, game: WaitingGame, terms: str = "", rematch: bool = False) -> Notice:
    """The notice of ``inviter``'s invitation to ``game``'s table (a rematch offer when ``rematch``),
    saying what its players agree to (``terms``), leading to the lobby (a private table's code
    stays out of mailboxes; the invitation is at the top of every page)."""
    title = f"{inviter} offers a rematch: {game.name}" if rematch else f"{inviter} invites you to {game.name}"
    lines = ((terms,) if terms else ()) + ("Join or decline at the top of any page of the site.",)
    return Notice(title=title, lines=lines, path="/", tag=f"invitation-{game.table_id}",
                  games=(), reason="when it is your turn, and when a friend invites you to a table")


def due_text(deadline: datetime | None, now: datetime) -> str:
    """``"due in 3 days"``, ``"due in 5 hours"``, ``"due in 12 minutes"``, ``"overdue"``; empty without a deadline."""
    if deadline is None:
        return ""
    if deadline.tzinfo is None:  # SQLite hands back naive UTC
        deadline = deadline.replace(tzinfo=timezone.utc)
    seconds = (deadline - now).total_seconds()
    if seconds <= 0:
        return "overdue"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"due in {count} {unit}{'' if count == 1 else 's'}"
    return "due in less than a minute"
