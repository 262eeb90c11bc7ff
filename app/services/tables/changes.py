"""A table's changes inside one transaction: create a table, list tables, join and leave seats,
start the game.  The caller holds the table's lock and commits (``actions.py`` does both, for the
REST handlers); the functions here only read and write rows.

A table and its game share one row and one id (``app.db.models.Table``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Result
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.bots import BOT_LEVELS, DEFAULT_LEVEL, canonical_level, known_level
from app.db.models import LIVE, TURN_BASED, Account, Invitation, Seat, Table, iso_utc, utcnow
from app.db.results import rowcount
from app.services.tables.seating import SeatInfo, bot_name
from app.rulesets.registry import Registry, UnknownRuleset
from app.services.attendance.deadlines import update_deadlines
from app.services.errors import AppError
from app.services.table_locks import TableHold
from app.services.tables.terms import option_words

PACE_BOUNDARY_SECONDS = 3600
"""A live table allows at most an hour per move, a turn-based one at least an hour (docs/decisions.md, *Pace*)."""
EMPTY_SEATS_CHOICES = ("bots", "fewer")
"""How the host may start a table with empty seats: a default bot in each, or without them."""


@dataclass(frozen=True)
class HeldSeat:
    """A seat of an open table held by an invitation for one person (a rematch offer): only their
    own *Join* seats them there (``invitation_id`` lets them decline it)."""

    seat: int
    invitation_id: int
    account_id: int
    name: str


@dataclass(frozen=True)
class TableInfo:
    """A table with its seats, as the lobby shows it; ``held``: the seats held for invited people
    (open tables only)."""

    table: Table
    seats: list[SeatInfo]
    held: dict[int, HeldSeat] = field(default_factory=dict)

    def seat_of(self, account_id: int | None) -> int | None:
        """The seat of ``account_id`` at this table, or ``None``."""
        if account_id is None:
            return None
        return next((info.seat for info in self.seats if info.account_id == account_id), None)

    def to_dict(self, registry: Registry, viewer_id: int | None) -> dict[str, Any]:
        """The wire form (docs/api.md, ``table``); the invite code only for members."""
        table = self.table
        member = viewer_id is not None and (viewer_id == table.creator_id or self.seat_of(viewer_id) is not None)
        try:
            ruleset = registry.get(table.ruleset)
            title, min_players, words = ruleset.title, ruleset.min_players, option_words(ruleset, table.options)
        except UnknownRuleset:
            title, min_players, words = table.ruleset, None, []
        return {
            "id": table.id,
            "ruleset": table.ruleset,
            "title": title,
            "min_players": min_players,
            "status": table.status,
            "private": table.private,
            "creator_id": table.creator_id,
            "options": table.options,
            "options_words": words,
            "seats": [{"seat": s.seat, "account_id": s.account_id, "name": s.name, "bot": s.bot_level is not None,
                       "bot_level": s.bot_level, "takeover": s.takeover, "deadline": iso_utc(s.deadline),
                       "away_since": iso_utc(s.away_since), "away_deadline": iso_utc(s.away_deadline),
                       "held_for": _held_dict(self.held.get(s.seat))}
                      for s in self.seats],
            "pace": table.pace,
            "time_control": {"move_seconds": table.move_seconds, "pace": table.pace},
            "chat_spectators": table.chat_spectators,
            "rated": table.rated,
            "rematch_of": table.rematch_of,
            "rematch_id": table.rematch_id,
            "invite_code": table.invite_code if member else None,
            "version": table.version,
            "created_at": iso_utc(table.created_at),
            "last_activity_at": iso_utc(table.updated_at),
            "to_act": _to_act(registry, table),
        }


def _held_dict(held: HeldSeat | None) -> dict[str, Any] | None:
    if held is None:
        return None
    return {"account_id": held.account_id, "name": held.name, "invitation_id": held.invitation_id}


def _to_act(registry: Registry, table: Table) -> list[int]:
    """The seats to act in a running game: stored with a checkpoint state (``tables.to_act``, so
    listing the lobby never folds moves: ``app/services/games/state.py``), else from the state."""
    if table.status != "running" or table.state is None:
        return []
    if table.state_version is not None:
        return sorted(table.to_act or [])
    return sorted(registry.get(table.ruleset).to_act(table.state))


def choose_pace(pace: str | None, move_seconds: int | None) -> str:
    """The pace of a new table: ``live`` (a per-move clock of at most an hour, or none)
    or ``turn_based`` (at least an hour per move, or none).  Without a ``pace`` it follows from
    ``move_seconds`` (an hour or more is turn-based), as tables were made before paces existed.

    Raises ``AppError(bad_request)`` for an unknown pace or a clock that does not fit it.
    """
    if pace is None:
        return TURN_BASED if move_seconds is not None and move_seconds >= PACE_BOUNDARY_SECONDS else LIVE
    if pace not in (LIVE, TURN_BASED):
        raise AppError("bad_request", "pace must be {live} or {turn_based}", live=repr(LIVE), turn_based=repr(TURN_BASED))
    if move_seconds is not None and pace == LIVE and move_seconds > PACE_BOUNDARY_SECONDS:
        raise AppError("bad_request", "a live table allows at most an hour per move; choose turn-based for more")
    if move_seconds is not None and pace == TURN_BASED and move_seconds < PACE_BOUNDARY_SECONDS:
        raise AppError("bad_request", "a turn-based table allows at least an hour per move; choose live for less")
    return pace


async def create_table(
    session: AsyncSession, registry: Registry, creator: Account, ruleset_name: str, seat_count: int,
    options: dict[str, Any] | None, private: bool, move_seconds: int | None = None, max_open_tables: int = 10,
    chat_spectators: bool = False, pace: str | None = None, rated: bool | None = None,
) -> TableInfo:
    """A new open table; the creator takes seat 0.  ``move_seconds``: the time control, or None;
    ``chat_spectators``: whether spectators may read and write the table's chat; ``pace``: see
    :func:`choose_pace`; ``rated``: whether its end changes ratings (``services/accounts/ratings.py``), by
    default for two seats or more (a solo table cannot be rated).

    Raises ``AppError``: ``not_found`` (unknown ruleset), ``bad_request`` (seat count outside
    the ruleset's range, options rejected by its ``Options`` model, a pace that does not fit the clock,
    a rated table of one seat).
    """
    pace = choose_pace(pace, move_seconds)
    try:
        ruleset = registry.get(ruleset_name)
    except UnknownRuleset:
        raise AppError("not_found", "no game called {ruleset_name}", ruleset_name=repr(ruleset_name)) from None
    open_tables = await session.scalar(select(func.count()).select_from(Table)
                                       .where(Table.creator_id == creator.id, Table.status == "open")) or 0
    if open_tables >= max_open_tables:
        raise AppError("rate_limited", "you already have {open_tables} open tables; start or leave one first", open_tables=open_tables)
    if not ruleset.min_players <= seat_count <= ruleset.max_players:
        raise AppError("bad_request", "{title} takes {min_players} to {max_players} players", title=ruleset.title, min_players=ruleset.min_players, max_players=ruleset.max_players)
    if rated and seat_count < 2:
        raise AppError("bad_request", "a table of one seat cannot be rated: ratings compare people")
    try:
        parsed = ruleset.new_table_options(options)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "options"
        raise AppError("bad_request", "bad option {where}: {msg}", where=where, msg=first.get('msg')) from None
    table = Table(
        ruleset=ruleset.name, options=parsed.model_dump(mode="json"), seat_count=seat_count, private=private,
        invite_code=secrets.token_urlsafe(9) if private else None, creator_id=creator.id, status="open", version=0,
        move_seconds=move_seconds, chat_spectators=chat_spectators, pace=pace,
        rated=seat_count >= 2 if rated is None else rated,
    )
    session.add(table)
    await session.flush()
    session.add_all(Seat(table_id=table.id, seat=index, account_id=creator.id if index == 0 else None)
                    for index in range(seat_count))
    await session.commit()
    return await load_table(session, table.id)


async def load_table(session: AsyncSession, table_id: int, for_update: bool = False) -> TableInfo:
    """The table and its seats; raises ``AppError(not_found)``."""
    query = select(Table).where(Table.id == table_id).execution_options(populate_existing=True)
    if for_update:
        query = query.with_for_update()
    table = await session.scalar(query)
    if table is None:
        raise AppError("not_found", "no table {table_id}", table_id=table_id)
    held = (await held_seats(session, [table_id]))[table_id] if table.status == "open" else {}
    return TableInfo(table, (await seats_of(session, [table_id]))[table_id], held)


async def held_seats(session: AsyncSession, table_ids: list[int]) -> dict[int, dict[int, HeldSeat]]:
    """``{table: {seat: HeldSeat}}``: the seats invitations hold for their invitees (a rematch offer)."""
    found: dict[int, dict[int, HeldSeat]] = {table_id: {} for table_id in table_ids}
    if table_ids:
        rows = await session.execute(
            select(Invitation.table_id, Invitation.seat, Invitation.id, Invitation.invitee_id, Account.name)
            .join(Account, Account.id == Invitation.invitee_id)
            .where(Invitation.table_id.in_(table_ids), Invitation.seat.is_not(None)))
        for table_id, seat, invitation_id, account_id, name in rows:
            assert seat is not None  # the query keeps held seats only
            found[table_id][seat] = HeldSeat(seat, invitation_id, account_id, name)
    return found


async def seats_of(session: AsyncSession, table_ids: list[int]) -> dict[int, list[SeatInfo]]:
    """The seats of several tables in one query.

    Two people with the same name at one table are told apart by their seat: "Carol (seat 3)".
    """
    occupant = aliased(Account)
    rows: Result[int, int, int | None, str | None, str | None, str | None, datetime | None, datetime | None,
                 datetime | None, int | None] = await session.execute(
        select(Seat.table_id, Seat.seat, Seat.account_id, occupant.name, Seat.bot_level, Seat.takeover, Seat.deadline,
               Seat.away_since, Seat.away_deadline, Seat.abandoned_from)
        .outerjoin(occupant, occupant.id == Seat.account_id)
        .where(Seat.table_id.in_(table_ids))
        .order_by(Seat.table_id, Seat.seat)
    )
    seats: dict[int, list[SeatInfo]] = {table_id: [] for table_id in table_ids}
    for table_id, seat, account_id, name, bot_level, takeover, deadline, away_since, away_deadline, abandoned in rows:
        seats[table_id].append(SeatInfo(seat, account_id, bot_name(seat) if bot_level else name, bot_level, takeover,
                                        deadline, away_since, away_deadline, abandoned))
    for table_seats in seats.values():
        names = [info.name for info in table_seats if info.name]
        for index, info in enumerate(table_seats):
            if info.name and names.count(info.name) > 1:
                table_seats[index] = replace(info, name=f"{info.name} (seat {info.seat + 1})")
    return seats


def check_access(info: TableInfo, viewer_id: int | None, invite_code: str | None) -> None:
    """Private tables are visible only to members and holders of the invite code.

    Raises ``AppError(not_found)`` so that a private table's existence is not revealed.
    """
    table = info.table
    if not table.private:
        return
    if viewer_id is not None and (viewer_id == table.creator_id or info.seat_of(viewer_id) is not None):
        return
    if invite_code and secrets.compare_digest(invite_code.encode(), (table.invite_code or "").encode()):
        return
    raise AppError("not_found", "no table {id}", id=table.id)


async def list_tables(session: AsyncSession, limit: int = 200) -> list[TableInfo]:
    """Open, running and abandoned public tables, newest first (an abandoned game is shown as such,
    never dropped: one of its players may come back to it)."""
    found = list(await session.scalars(
        select(Table).where(Table.private.is_(False), Table.status.in_(("open", "running", "abandoned")))
        .order_by(Table.id.desc()).limit(limit)
    ))
    seats = await seats_of(session, [table.id for table in found])
    held = await held_seats(session, [table.id for table in found if table.status == "open"])
    return [TableInfo(table, seats[table.id], held.get(table.id, {})) for table in found]


async def join_table(session: AsyncSession, registry: Registry, account: Account, held: TableHold, seat: int | None,
                     invite_code: str | None) -> TableInfo:
    """Seat ``account`` at ``seat`` (or the seat an invitation holds for them, or the first empty
    seat nobody's invitation holds); the invitation to this table, if any, is used up.

    Whether the game then starts by itself (a rematch offer's last person) is the caller's to
    decide (``app/services/tables/actions.py``, ``join``).

    Raises ``AppError``: ``not_found``, ``conflict`` (not open, already seated), ``table_full``
    (no empty seat, or that seat is taken or held for someone else), ``bad_request`` (no such seat).
    """
    table_id = held.check()
    info = await load_table(session, table_id, for_update=True)
    check_access(info, account.id, invite_code)
    if info.table.status != "open":
        raise AppError("conflict", "this table is no longer open for players")
    if info.seat_of(account.id) is not None:
        raise AppError("conflict", "you already have a seat at this table")
    mine = next((held.seat for held in info.held.values() if held.account_id == account.id), None)
    empty = [s.seat for s in info.seats if s.empty and (s.seat not in info.held or s.seat == mine)]
    if seat is None:
        if not empty:
            raise AppError("table_full", "every seat at this table is taken")
        seat = mine if mine is not None else empty[0]
    elif not 0 <= seat < info.table.seat_count:
        raise AppError("bad_request", "this table has seats 0 to {seat_count}", seat_count=info.table.seat_count - 1)
    elif seat in info.held and seat != mine:
        raise AppError("table_full", "seat {seat} is kept for {name}, who was asked to play", seat=seat, name=info.held[seat].name)
    elif seat not in empty:
        raise AppError("table_full", "seat {seat} is taken", seat=seat)
    # The compare-and-set on an empty seat keeps two simultaneous joins from both winning.
    try:
        result = await session.execute(
            Seat.__table__.update()
            .where(Seat.table_id == table_id, Seat.seat == seat, Seat.account_id.is_(None), Seat.bot_level.is_(None))
            .values(account_id=account.id, seen_at=utcnow())  # at the table now (attendance/waiting.py)
        )
        if rowcount(result) != 1:
            await session.rollback()
            raise AppError("table_full", "seat {seat} was just taken", seat=seat)
        await session.execute(delete(Invitation).where(Invitation.table_id == table_id,
                                                       Invitation.invitee_id == account.id))
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raise AppError("conflict", "you already have a seat at this table") from None
    return await load_table(session, table_id)


async def unseat(session: AsyncSession, held: TableHold, seats: list[int]) -> None:
    """Empty ``seats`` of the open table ``held`` (their people were not at the table when its host
    started it: ``app/services/tables/actions.py``); not committed."""
    table_id = held.check()
    await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat.in_(seats)).values(account_id=None))


async def leave_table(session: AsyncSession, account: Account, held: TableHold) -> TableInfo:
    """Give up ``account``'s seat at an open table.

    When the creator leaves, the next seated person becomes the host; with nobody left the
    table is closed (status ``closed``, gone from the lobby).

    Raises ``AppError``: ``not_found``, ``not_seated``, ``conflict`` (game already started).
    """
    table_id = held.check()
    info = await load_table(session, table_id, for_update=True)
    check_access(info, account.id, None)
    seat = info.seat_of(account.id)
    if seat is None:
        raise AppError("not_seated", "you have no seat at this table")
    if info.table.status != "open":
        raise AppError("conflict", "the game has started; seats can no longer be left")
    if account.id == info.table.creator_id:
        heirs = [s.account_id for s in info.seats if s.account_id is not None and s.account_id != account.id]
        if heirs:
            info.table.creator_id = heirs[0]
        else:
            info.table.status = "closed"
    await session.execute(
        Seat.__table__.update().where(Seat.table_id == table_id, Seat.seat == seat).values(account_id=None)
    )
    await session.commit()
    return await load_table(session, table_id)


async def start_table(session: AsyncSession, registry: Registry, account: Account, held: TableHold,
                      empty_seats: str | None = None) -> TableInfo:
    """Start the game: only the creator, only once, with every seat filled, or with
    ``empty_seats`` saying what becomes of the empty ones (also those still held for people who
    did not take them: they did not agree to play): ``"bots"`` seats a default bot in each,
    ``"fewer"`` starts without them (the seats after a removed one move up) where the game allows
    that many players (one seat left: a solo table, never rated).

    Sets ``seed`` (secret), ``state`` = ``setup(...)`` and ``version`` 0.  Raises ``AppError``:
    ``not_found``, ``forbidden`` (not the creator), ``conflict`` (already started, empty seats),
    ``bad_request`` (an unknown ``empty_seats``; fewer seats than the game takes).
    """
    table_id = held.check()
    info = await load_table(session, table_id, for_update=True)
    check_access(info, account.id, None)
    table = info.table
    if account.id != table.creator_id:
        raise AppError("forbidden", "only the table's creator can start the game")
    if table.status != "open":
        raise AppError("conflict", "this game has already started")
    if empty_seats is not None and empty_seats not in EMPTY_SEATS_CHOICES:
        raise AppError("bad_request", "empty_seats must be one of {choices}", choices=', '.join(EMPTY_SEATS_CHOICES))
    vacant = [s.seat for s in info.seats if s.empty]
    if vacant and empty_seats is None:
        waiting = sorted(held.name for held in info.held.values())
        if waiting:
            raise AppError("conflict", "waiting for {waiting} to accept; start with bots in their seats or with fewer seats", waiting=', '.join(waiting))
        raise AppError("conflict", "every seat must be filled before the game starts")
    if vacant:
        await session.execute(delete(Invitation).where(Invitation.table_id == table_id, Invitation.seat.in_(vacant)))
        if empty_seats == "bots":
            await session.execute(update(Seat).where(Seat.table_id == table_id, Seat.seat.in_(vacant))
                                  .values(bot_level=DEFAULT_LEVEL))
        else:
            await _drop_seats(session, registry, info, vacant)
        info = await load_table(session, table_id, for_update=True)
    return await begin(session, registry, info)


async def _drop_seats(session: AsyncSession, registry: Registry, info: TableInfo, vacant: list[int]) -> None:
    """Remove the seats ``vacant`` of an open table; the seats after them move up (nothing has been
    played yet, so a seat number means nothing more than its order)."""
    ruleset = registry.get(info.table.ruleset)
    remaining = info.table.seat_count - len(vacant)
    if remaining < ruleset.min_players:
        raise AppError("bad_request", "{title} takes at least {min_players} players; seat bots in the empty seats instead", title=ruleset.title, min_players=ruleset.min_players)
    await session.execute(delete(Seat).where(Seat.table_id == info.table.id, Seat.seat.in_(vacant)))
    kept = [s.seat for s in info.seats if s.seat not in vacant]
    for new, old in enumerate(kept):  # ascending, so a seat always moves into a number already free
        if new != old:
            await session.execute(update(Seat).where(Seat.table_id == info.table.id, Seat.seat == old).values(seat=new))
            await session.execute(update(Invitation).where(Invitation.table_id == info.table.id, Invitation.seat == old)
                                  .values(seat=new))
    await session.execute(update(Table).where(Table.id == info.table.id)
                          .values(seat_count=remaining, rated=info.table.rated and remaining >= 2))


async def begin(session: AsyncSession, registry: Registry, info: TableInfo) -> TableInfo:
    """Start the open table ``info`` (every seat filled, its row locked): seed, setup, deadlines;
    commits.  Raises ``AppError(conflict)`` when another request started it first."""
    table = info.table
    ruleset = registry.get(table.ruleset)
    seed = secrets.randbits(63)
    state = ruleset.setup(table.seat_count, ruleset.parse_options(table.options), seed)
    # A guarded update: a second start racing this one finds the status changed and fails.
    result = await session.execute(
        Table.__table__.update().where(Table.id == table.id, Table.status == "open")
        .values(status="running", seed=seed, state=state, state_version=None, to_act=None, version=0)
    )
    if rowcount(result) != 1:
        await session.rollback()
        raise AppError("conflict", "this game has already started")
    await session.execute(delete(Invitation).where(Invitation.table_id == table.id))
    await update_deadlines(session, table, set(), ruleset.to_act(state), None)
    # Everyone seated is seen at the start, so nobody counts as away before the game could reach them.
    await session.execute(update(Seat).where(Seat.table_id == table.id, Seat.account_id.is_not(None))
                          .values(seen_at=utcnow()))
    await session.commit()
    return await load_table(session, table.id)


async def set_bot(session: AsyncSession, account: Account, held: TableHold, seat: int, level: str | None) -> TableInfo:
    """Seat a bot of ``level`` at an empty ``seat`` of an open table, or (``level`` None) remove it.

    Only the creator may; the creator may also hand their own seat to a bot.  Raises ``AppError``: ``not_found``, ``forbidden``, ``conflict`` (not
    open), ``bad_request`` (no such seat or level), ``table_full`` (a person sits there).
    """
    table_id = held.check()
    info = await load_table(session, table_id, for_update=True)
    check_access(info, account.id, None)
    if account.id != info.table.creator_id:
        raise AppError("forbidden", "only the table's creator can seat or remove bots")
    if info.table.status != "open":
        raise AppError("conflict", "this table has already started")
    if not 0 <= seat < info.table.seat_count:
        raise AppError("bad_request", "this table has seats 0 to {seat_count}", seat_count=info.table.seat_count - 1)
    if level is not None and not known_level(level):
        raise AppError("bad_request", "bot level must be one of {levels}", levels=', '.join(BOT_LEVELS))
    if level is not None:
        level = canonical_level(level)  # an old name ("default") is stored as the level it plays
    holder = info.seats[seat].account_id
    if holder is not None and not (holder == account.id and level is not None):
        raise AppError("table_full", "seat {seat} is taken by {name}", seat=seat, name=info.seats[seat].name)
    if level is not None and seat in info.held:  # the host fills the seat instead: the invitation is withdrawn
        await session.execute(delete(Invitation).where(Invitation.id == info.held[seat].invitation_id))
    # The creator may hand their own seat to a bot (an all-bot table); anyone else's seat is theirs.
    await session.execute(
        Seat.__table__.update()
        .where(Seat.table_id == table_id, Seat.seat == seat, Seat.account_id.is_(None) | (Seat.account_id == account.id))
        .values(bot_level=level, account_id=None)
    )
    await session.commit()
    return await load_table(session, table_id)
