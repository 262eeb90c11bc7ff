"""Ratings per game: openskill's Weng-Lin Bayesian rating (Plackett-Luce model),
made for games of any number of players with shared places.

Who counts: a finished game at a *rated* table with at least two people seated.  Bot seats are left
out (the people are rated by their places among each other); a game with fewer than two people (a
solo game, or one person against bots) changes nothing.  Ratings follow what people did:

* a person who *abandoned* the game (a bot still played their seat when it ended: they resigned,
  left, ran out of time or stayed away; ``seats.abandoned_from``, ``services/games/abandonment.py``)
  is ranked last among its people, behind every place anyone reached, whatever the bot did for
  them; several who abandoned share that last place (as Board Game Arena and Lichess count it);
* someone who came back and finished the game themselves counts by their place;
* at a table without a time limit, a person whose seat was handed to a bot because they were away
  (takeover ``away``, asked by another player) and who was not back by the end is left out: nobody
  agreed to a clock there, so being away is no abandonment, and neither the bot's result nor a
  last place is theirs; the others are compared among themselves;
* a game where every person abandoned is not rated: nobody played it to the end.

docs/playing.md, "Ratings".

When: in the very transaction that commits the game's last move (``services/games/pipeline.py``), so a game
is rated exactly once and never finishes without its rating.  Each person's rating row is locked
(in account order, so two games sharing players cannot deadlock) before it is read; the changes'
``id`` therefore grows in the order games were rated, and :func:`recompute` replays the stored games
in that order to get the same numbers.

Shown: ``display_rating`` = openskill's ordinal with ``alpha=40, target=1000``, that is
``1000 + 40 * (mu - 3 * sigma)``: a cautious estimate that starts at 1000 and climbs as the system
grows sure of a player.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, Rating, RatingChange, Seat, Table, iso_utc, utcnow
from app.rulesets.base import Result
from app.rulesets.registry import Registry, UnknownRuleset
from app.services.errors import AppError

MODEL = PlackettLuce()
"""The rating model with openskill's defaults (mu 25, sigma 25/3, tau 25/300); configuration, never changed."""
DISPLAY_ALPHA, DISPLAY_TARGET = 40.0, 1000.0
HISTORY_LIMIT = 50
"""Rating changes per game shown on a profile (the newest)."""


@dataclass(frozen=True)
class RatedSeat:
    """A person who counts in a rated game: their ``seat``, ``account_id`` and 1-based ``place``."""

    seat: int
    account_id: int
    place: int


@dataclass(frozen=True)
class Skill:
    """A rating as the model keeps it: ``mu`` (estimated skill) and ``sigma`` (its uncertainty)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def display(self) -> int:
        """The number people see: ``1000 + 40 * (mu - 3 * sigma)``, rounded (openskill's ordinal)."""
        return display_rating(self.mu, self.sigma)


def display_rating(mu: float, sigma: float) -> int:
    """``round(1000 + 40 * (mu - 3 * sigma))`` through openskill's ``ordinal``; 1000 for a newcomer."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET))


def rated_seats(seats: Iterable[Any], result: Result, untimed: bool = False) -> list[RatedSeat]:
    """The people who count in a finished game, in seat order; ``[]`` when fewer than two people
    count or every one of them abandoned it.

    ``seats``: objects with ``seat``, ``account_id`` (null for a bot's seat), ``takeover`` and
    ``abandoned_from`` (the game's end found a bot playing the person's seat; None otherwise), such
    as ``SeatInfo`` or ``Seat``.  A person who finished counts with their place (``result.ranks``);
    one who abandoned with the place after the last anyone reached (``max(ranks) + 1``), shared with
    every other who abandoned.  ``untimed`` (the table has no time limit): a person a bot played for
    at the end because they were away (takeover ``away``) does not count at all (the module's
    docstring).
    """
    people = [info for info in seats if info.account_id is not None
              and not (untimed and getattr(info, "abandoned_from", None) is not None and info.takeover == "away")]
    abandoned = {info.seat for info in people if getattr(info, "abandoned_from", None) is not None}
    if len(people) < 2 or len(abandoned) == len(people):
        return []
    last = max(result.ranks) + 1
    return [RatedSeat(info.seat, info.account_id, last if info.seat in abandoned else result.ranks[info.seat])
            for info in people]


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The new skills after one game, each player a team of one; ``places`` 1-based, equal places shared.

    openskill's ``PlackettLuce.rate`` with ``ranks`` (lower is better, ties share).
    """
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = MODEL.rate(teams, ranks=list(places))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


async def rate_finished_game(session: AsyncSession, table_id: int, ruleset: str, seats: Iterable[Any],
                             result: Result, untimed: bool = False) -> list[RatingChange]:
    """Rate the game ``table_id`` that has just finished, inside the caller's transaction (not committed here).

    Call only for a rated table; ``untimed``: it has no time limit (:func:`rated_seats`).  Does nothing
    (returns ``[]``) when fewer than two people count or the game was rated already.  Locks the
    players' rating rows, creating any that do not exist yet.
    """
    players = rated_seats(seats, result, untimed)
    if not players or await session.scalar(select(RatingChange.id).where(RatingChange.table_id == table_id).limit(1)):
        return []
    account_ids = sorted(player.account_id for player in players)
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    now = utcnow()
    await session.execute(insert(Rating).values([
        {"account_id": account_id, "ruleset": ruleset, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0,
         "updated_at": now} for account_id in account_ids]).on_conflict_do_nothing())
    rows = {row.account_id: row for row in await session.scalars(
        select(Rating).where(Rating.ruleset == ruleset, Rating.account_id.in_(account_ids))
        .order_by(Rating.account_id).with_for_update().execution_options(populate_existing=True))}
    before = [Skill(rows[player.account_id].mu, rows[player.account_id].sigma) for player in players]
    after = rate(before, [player.place for player in players])
    changes = []
    for player, old, new in zip(players, before, after):
        row = rows[player.account_id]
        row.mu, row.sigma, row.games, row.updated_at = new.mu, new.sigma, row.games + 1, now
        changes.append(RatingChange(table_id=table_id, account_id=player.account_id, ruleset=ruleset, seat=player.seat,
                                    place=player.place, mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu,
                                    sigma_after=new.sigma, created_at=now))
    session.add_all(changes)
    await session.flush()
    return changes


def change_to_dict(change: RatingChange) -> dict[str, Any]:
    """``{table_id, seat, place, before, after, delta, at}``: one game's change in shown numbers."""
    before = display_rating(change.mu_before, change.sigma_before)
    after = display_rating(change.mu_after, change.sigma_after)
    return {"table_id": change.table_id, "seat": change.seat, "place": change.place, "before": before,
            "after": after, "delta": after - before, "at": iso_utc(change.created_at)}


async def game_ratings(session: AsyncSession, table: Table, seats: Iterable[Any]) -> dict[str, Any]:
    """``{rated, seats: [{seat, account_id, rating, games, change}]}`` for a table's people (bots left out).

    ``rating``: the person's current shown rating in this game (1000 and ``games`` 0 before their
    first rated game); ``change``: what this game did (``change_to_dict``), or null.
    """
    people = [info for info in seats if info.account_id is not None]
    ids = [info.account_id for info in people]
    current = {row.account_id: row for row in await session.scalars(
        select(Rating).where(Rating.ruleset == table.ruleset, Rating.account_id.in_(ids)))}
    changes = {row.account_id: row for row in await session.scalars(
        select(RatingChange).where(RatingChange.table_id == table.id))}
    entries = []
    for info in people:
        row = current.get(info.account_id)
        change = changes.get(info.account_id)
        entries.append({"seat": info.seat, "account_id": info.account_id,
                        "rating": display_rating(row.mu, row.sigma) if row else Skill().display,
                        "games": row.games if row else 0,
                        "change": change_to_dict(change) if change else None})
    return {"rated": table.rated, "seats": entries}


async def player_ratings(session: AsyncSession, registry: Registry, account_id: int,
                         own: bool = True) -> list[dict[str, Any]]:
    """A profile's ratings, one per game the person was rated in, most games first:
    ``[{ruleset, title, rating, games, history: [change_to_dict]}]``; ``history`` oldest first, the
    newest ``HISTORY_LIMIT`` only.  Unless the person looks at their ``own`` profile, a change made
    by a private game keeps its numbers but loses its ``table_id``."""
    ratings = list(await session.scalars(select(Rating).where(Rating.account_id == account_id)
                                         .order_by(Rating.games.desc(), Rating.ruleset)))
    hidden: set[int] = set() if own else set(await session.scalars(
        select(RatingChange.table_id).join(Table, Table.id == RatingChange.table_id)
        .where(RatingChange.account_id == account_id, Table.private.is_(True))))
    found = []
    for row in ratings:
        newest = list(await session.scalars(
            select(RatingChange).where(RatingChange.account_id == account_id, RatingChange.ruleset == row.ruleset)
            .order_by(RatingChange.id.desc()).limit(HISTORY_LIMIT)))
        history = [change_to_dict(change) for change in reversed(newest)]
        for entry in history:
            if entry["table_id"] in hidden:
                entry["table_id"] = None
        try:
            title = registry.get(row.ruleset).title
        except UnknownRuleset:
            title = row.ruleset
        found.append({"ruleset": row.ruleset, "title": title, "rating": display_rating(row.mu, row.sigma),
                      "games": row.games, "history": history})
    return found


async def leaderboard(session: AsyncSession, registry: Registry, ruleset: str, limit: int = 50) -> list[dict[str, Any]]:
    """The best ``limit`` rated players of ``ruleset``: ``[{rank, account_id, name, rating, games}]``,
    highest shown rating first; equal ratings share a rank.  Raises ``AppError(not_found)`` for a
    game that is not installed."""
    try:
        registry.get(ruleset)
    except UnknownRuleset:
        raise AppError("not_found", "no game called {ruleset}", ruleset=repr(ruleset)) from None
    rows = (await session.execute(
        select(Rating.account_id, Account.name, Rating.mu, Rating.sigma, Rating.games)
        .join(Account, Account.id == Rating.account_id)
        .where(Rating.ruleset == ruleset, Rating.games > 0)
        .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.account_id).limit(limit))).all()
    board: list[dict[str, Any]] = []
    for position, (account_id, name, mu, sigma, games) in enumerate(rows, start=1):
        shown = display_rating(mu, sigma)
        rank = board[-1]["rank"] if board and board[-1]["rating"] == shown else position
        board.append({"rank": rank, "account_id": account_id, "name": name, "rating": shown, "games": games})
    return board


@dataclass(frozen=True)
class Recomputed:
    """The outcome of :func:`recompute`: ``games`` replayed, ``differences`` (stored numbers that did not
    match, ratings and changes counted one each), and the recomputed ``ratings`` by ``(account, ruleset)``."""

    games: int
    differences: int
    ratings: dict[tuple[int, str], tuple[Skill, int]]


async def recompute(session: AsyncSession, registry: Registry, write: bool = True) -> Recomputed:
    """Recompute every rating from the stored games, replaying the finished rated games in the order they
    were rated (games never rated yet come last, by id); with ``write``, store the result (committed).

    Only games of installed rulesets are replayed; ratings of others are left as they are.
    """
    installed = [ruleset.name for ruleset in registry.all()]
    first_change = (select(RatingChange.table_id, func.min(RatingChange.id).label("first"))
                    .group_by(RatingChange.table_id).subquery())
    games = list((await session.execute(
        select(Table, first_change.c.first).outerjoin(first_change, first_change.c.table_id == Table.id)
        .where(Table.status == "finished", Table.rated.is_(True), Table.ruleset.in_(installed)))).all())
    games.sort(key=lambda row: (row.first is None, row.first or 0, row.Table.id))
    seats = await _people_by_table(session, [row.Table.id for row in games])
    skills: dict[tuple[int, str], Skill] = defaultdict(Skill)
    counts: dict[tuple[int, str], int] = defaultdict(int)
    fresh: list[RatingChange] = []
    for row in games:
        table = row.Table
        result = registry.get(table.ruleset).result(table.state) if table.state is not None else None
        players = rated_seats(seats.get(table.id, []), result, untimed=not table.move_seconds) if result is not None else []
        if not players:
            continue
        before = [skills[(player.account_id, table.ruleset)] for player in players]
        for player, old, new in zip(players, before, rate(before, [player.place for player in players])):
            skills[(player.account_id, table.ruleset)] = new
            counts[(player.account_id, table.ruleset)] += 1
            fresh.append(RatingChange(table_id=table.id, account_id=player.account_id, ruleset=table.ruleset,
                                      seat=player.seat, place=player.place, mu_before=old.mu, sigma_before=old.sigma,
                                      mu_after=new.mu, sigma_after=new.sigma))
    stored_changes = {(change.table_id, change.account_id): change for change in await session.scalars(
        select(RatingChange).where(RatingChange.ruleset.in_(installed)))}
    stored_ratings = {(row.account_id, row.ruleset): row for row in await session.scalars(
        select(Rating).where(Rating.ruleset.in_(installed)))}
    differences = sum(not _same_change(stored_changes.get((change.table_id, change.account_id)), change)
                      for change in fresh)
    differences += len(stored_changes) - len({(c.table_id, c.account_id) for c in fresh} & stored_changes.keys())
    differences += sum(not _same_rating(stored_ratings.get(key), skill, counts[key]) for key, skill in skills.items())
    differences += len(stored_ratings.keys() - skills.keys())
    if write:
        await _store(session, installed, fresh, skills, counts, stored_changes)
    return Recomputed(len(games), differences, {key: (skill, counts[key]) for key, skill in skills.items()})


async def _people_by_table(session: AsyncSession, table_ids: list[int]) -> dict[int, list[Seat]]:
    found: dict[int, list[Seat]] = defaultdict(list)
    if table_ids:
        for seat in await session.scalars(select(Seat).where(Seat.table_id.in_(table_ids)).order_by(Seat.seat)):
            found[seat.table_id].append(seat)
    return found


def _same_change(stored: RatingChange | None, fresh: RatingChange) -> bool:
    return stored is not None and (stored.seat, stored.place, stored.mu_before, stored.sigma_before, stored.mu_after,
                                   stored.sigma_after) == (fresh.seat, fresh.place, fresh.mu_before, fresh.sigma_before,
                                                           fresh.mu_after, fresh.sigma_after)


def _same_rating(stored: Rating | None, skill: Skill, games: int) -> bool:
    return stored is not None and (stored.mu, stored.sigma, stored.games) == (skill.mu, skill.sigma, games)


async def _store(session: AsyncSession, installed: list[str], fresh: list[RatingChange],
                 skills: dict[tuple[int, str], Skill], counts: dict[tuple[int, str], int],
                 stored_changes: dict[tuple[int, int], RatingChange]) -> None:
    """Replace the installed games' ratings and changes by the recomputed ones, keeping each change's
    time; the changes are inserted in replay order, so their ids keep that order."""
    now = utcnow()
    for change in fresh:
        old = stored_changes.get((change.table_id, change.account_id))
        change.created_at = old.created_at if old is not None else now
    await session.execute(delete(RatingChange).where(RatingChange.ruleset.in_(installed)))
    await session.execute(delete(Rating).where(Rating.ruleset.in_(installed)))
    session.add_all(fresh)
    session.add_all(Rating(account_id=account_id, ruleset=ruleset, mu=skill.mu, sigma=skill.sigma,
                           games=counts[(account_id, ruleset)], updated_at=now)
                    for (account_id, ruleset), skill in skills.items())
    await session.commit()
