"""Log entries of a move a bot made for a person say so (the person left, ran out of time, resigned
or was away, and the default bot plays their seat): "Ben (bot) placed a camel on F7".

The mark is part of the stored entry's typed arguments, not only of its words, so every reader (the
``GET /log``, the socket's log, replays, a client that writes the sentence itself) sees it: the
mover's ``{seatN}`` argument carries ``"bot": true`` (its words become "Ben (bot)",
``rulesets.base.arg_text``), and every entry gets a ``by`` argument naming the seat the bot played.
The words say who played once per reader: an entry whose words do not name the mover ends with
" — played by {by}" only when none of the move's earlier entries that its readers see already said
it.  The rest of a move's entries are its consequences ("Ana collects 2 Ore", "Round 2 begins"),
which no bot played, so they keep their own words, but for an entry that makes public another
seat's earlier hidden choice (``Event.reveals``: "Ben placed card 42", shown once everyone has
chosen) which a bot made for Ben: Ben's name says "(bot)" there too (:func:`mark_revealed`).  A bot
that sits at a seat of its own ("Ada (bot)") is named so already and is left as it is.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import player

PLAYED_BY = "{sentence} — played by {{by}}"
"""How an entry that does not name the mover says a bot played it (``{sentence}``: its template).
The game catalogs the browser loads hold each template's form with it (``app/api/languages.py``)."""
BY = "by"
"""The argument every entry of a bot's move for a person carries: the seat the bot played."""


def mark_bot_events(event_rows: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The stored event rows (``Event.model_dump``) of a move the bot made for the person at ``seat``,
    marked as that bot's (see the module's docstring); ``event_rows`` is not changed."""
    name = f"seat{seat}"
    bot = {**player(seat), "bot": True}
    marked = []
    told_everyone = False  # whether every reader has read an entry saying who played
    told: set[int] = set()  # else the seats that have
    for row in event_rows:
        text = row["text"]
        args = {**row.get("args", {}), BY: bot}
        readers = row.get("seats")  # None: everyone
        already_told = told_everyone or (readers is not None and set(readers) <= told)
        if "{" + name + "}" in text:
            args[name] = bot
        elif not already_told:
            text = PLAYED_BY.format(sentence=text)
        if readers is None:
            told_everyone = True
        else:
            told.update(readers)
        marked.append({**row, "text": text, "args": args})
    return marked


def mark_revealed(event_rows: list[dict[str, Any]], reveals: list[tuple[int, ...]],
                  bot_chosen: set[int]) -> list[dict[str, Any]]:
    """The stored event rows of a move, where an entry that reveals (``reveals[i]``, the event's
    ``Event.reveals``) the choice of a seat in ``bot_chosen`` (a bot chose it for the seat's person)
    names that seat "(bot)" and carries a ``by`` argument (the first such seat); ``event_rows`` is
    not changed."""
    marked = []
    for row, seats in zip(event_rows, reveals, strict=True):
        named = [seat for seat in seats if seat in bot_chosen and "{seat%d}" % seat in row["text"]]
        if named:
            bots = {f"seat{seat}": {**player(seat), "bot": True} for seat in named}
            row = {**row, "args": {**row.get("args", {}), **bots, BY: bots[f"seat{named[0]}"]}}
        marked.append(row)
    return marked
