"""The words of a notice, the same for every channel.

One turn: "Your turn in Nimalia (table 12)", leading to the table.  Several
games waiting: a digest, "Your turn in 3 games", naming each, leading to the person's games.
An invitation: "Ana invites you to Nimalia (table 12)", leading to the lobby,
where the invitation waits with *Join* and *Decline* (a private table's invite code stays there,
out of mailboxes).

Every builder takes the recipient's ``language`` (their account's setting; ``None``: English) and
writes the notice's words in it (``app/i18n``, ``server.po``).  A game's title is its name and is
not translated.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from app.i18n import ntranslate, translate


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
        return self.name_in(None)

    def name_in(self, language: str | None) -> str:
        """The game's name in ``language``: ``"Nimalia (table 12)"``, ``"Nimalia (table 12)"`` in French too."""
        return translate(language, "{title} (table {table_id})", title=self.title, table_id=self.table_id)

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
    {reason}"); ``language``: the one it is written in (``None``: English)."""

    title: str
    lines: tuple[str, ...]
    path: str
    tag: str
    games: tuple[WaitingGame, ...]
    reason: str = "when it is your turn"
    language: str | None = None


def turn_notice(game: WaitingGame, now: datetime, language: str | None = None) -> Notice:
    """The notice of one turn, in ``language``."""
    due = due_text(game.deadline, now, language)
    line = translate(language, "It is your move, {due}.", due=due) if due else translate(language, "It is your move.")
    return Notice(title=translate(language, "Your turn in {game}", game=game.name_in(language)), lines=(line,),
                  path=game.path, tag=f"turn-{game.table_id}", games=(game,),
                  reason=translate(language, "when it is your turn"), language=language)


def digest_notice(games: list[WaitingGame], my_games_path: str, now: datetime, language: str | None = None) -> Notice:
    """The digest of every game that waits, the newly waiting ones first, in ``language``."""
    ordered = sorted(games, key=lambda game: (not game.new, game.table_id))
    lines = []
    for game in ordered:
        due = due_text(game.deadline, now, language)
        name = game.name_in(language)
        lines.append(translate(language, "{game}, {due}", game=name, due=due) if due else name)
    return Notice(title=ntranslate(language, "Your turn in {n} game", "Your turn in {n} games", len(games)),
                  lines=tuple(lines), path=my_games_path, tag="digest", games=tuple(ordered),
                  reason=translate(language, "when it is your turn"), language=language)


def invitation_notice(inviter: str, game: WaitingGame, terms: str = "", rematch: bool = False,
                      language: str | None = None) -> Notice:
    """The notice of ``inviter``'s invitation to ``game``'s table (a rematch offer when ``rematch``),
    saying what its players agree to (``terms``), leading to the lobby (a private table's code
    stays out of mailboxes; the invitation is at the top of every page); in ``language``."""
    name = game.name_in(language)
    title = (translate(language, "{inviter} offers a rematch: {game}", inviter=inviter, game=name) if rematch
             else translate(language, "{inviter} invites you to {game}", inviter=inviter, game=name))
    lines = ((terms,) if terms else ()) + (translate(language, "Join or decline at the top of any page of the site."),)
    return Notice(title=title, lines=lines, path="/", tag=f"invitation-{game.table_id}",
                  games=(), reason=translate(language, "when it is your turn, and when a friend invites you to a table"),
                  language=language)


def due_text(deadline: datetime | None, now: datetime, language: str | None = None) -> str:
    """``"due in 3 days"``, ``"due in 5 hours"``, ``"due in 12 minutes"``, ``"overdue"`` (in
    ``language``); empty without a deadline."""
    if deadline is None:
        return ""
    if deadline.tzinfo is None:  # SQLite hands back naive UTC
        deadline = deadline.replace(tzinfo=timezone.utc)
    seconds = (deadline - now).total_seconds()
    if seconds <= 0:
        return translate(language, "overdue")
    if seconds >= 86400:
        return ntranslate(language, "due in {n} day", "due in {n} days", int(seconds // 86400))
    if seconds >= 3600:
        return ntranslate(language, "due in {n} hour", "due in {n} hours", int(seconds // 3600))
    if seconds >= 60:
        return ntranslate(language, "due in {n} minute", "due in {n} minutes", int(seconds // 60))
    return translate(language, "due in less than a minute")
