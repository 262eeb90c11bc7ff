"""The latest committed state of each running game this process has seen.

Filled by the move pipeline after each commit and by readers; entries carry their version, so
a stale entry (another instance moved on) is recognised and reloaded.  Never the source of
truth: the move pipeline always checks the version inside its transaction.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson

from app.services.tables.seating import SeatInfo


@dataclass(frozen=True)
class GameSnapshot:
    """A game at one version: its table facts, state, seats and time control (seconds per move or None)."""

    game_id: int
    ruleset: str
    status: str
    version: int
    state: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    private: bool
    invite_code: str | None
    move_seconds: int | None = None
    recent: tuple[tuple[int, list[dict[str, Any]]], ...] = ()
    """The log rows ``(version, events)`` of the move that made this version, when known."""
    creator_id: int | None = None
    undo_seat: int | None = None
    """The seat that may take back the last move now (``app/services/games/move_log.py``), or None."""

    @property
    def names(self) -> tuple[str, ...]:
        """Player names by seat."""
        return tuple(seat.name or "" for seat in self.seats)

    @property
    def bots(self) -> tuple[str | None, ...]:
        """By seat, the level of the bot that plays it now (None: a person)."""
        return tuple(seat.played_by_bot for seat in self.seats)


class CachedStateChanged(RuntimeError):
    """A held snapshot's state was changed in place (found with ``GameCache(check_unchanged=True)``)."""


class GameCache:
    """An LRU map ``game_id -> GameSnapshot`` that only ever moves forward in version.

    A snapshot read from the database can be overtaken by a seating change that commits while it
    is being read (same version, older seats).  Readers therefore take an :meth:`epoch` before they
    read and hand it to :meth:`put`; a snapshot read before any :meth:`forget` since is dropped.

    The fan-out's news of each commit is noted with :meth:`heard`: :meth:`current` hands out only a
    snapshot at least as new as the newest version heard of, so a reader that may lag by a lost
    notice (the sockets' greeting, which the hub's resync poll corrects within seconds) needs no
    database read at all (docs/decisions.md, *Shared greeting reads*).

    Nobody may change a held snapshot's state in place: readers share it (the hub, the bot driver,
    the next move's ``apply``, which copies it).  With ``check_unchanged`` (the test suite's
    setting ``check_cached_states``) every read compares the state with its serialization taken
    when it was put, and raises :class:`CachedStateChanged` if it differs.
    """

    def __init__(self, capacity: int = 2048, check_unchanged: bool = False) -> None:
        self._check_unchanged = check_unchanged
        self._written: dict[int, bytes] = {}  # with check_unchanged: each held state as it was put
        self._entries: OrderedDict[int, GameSnapshot] = OrderedDict()
        self._capacity = capacity
        self._epoch = 0  # counts forget() calls; seating changes are rare, so one counter for all games
        self._heard: OrderedDict[int, int] = OrderedDict()

    def epoch(self) -> int:
        """A token to pass to :meth:`put` for a snapshot whose reading starts now."""
        return self._epoch

    def get(self, game_id: int) -> GameSnapshot | None:
        """The newest snapshot held for ``game_id``, or ``None``."""
        entry = self._entries.get(game_id)
        if entry is not None:
            self._entries.move_to_end(game_id)
            if self._check_unchanged and orjson.dumps(entry.state) != self._written.get(game_id):
                raise CachedStateChanged(f"the cached state of game {game_id} at version {entry.version} was changed "
                                         "in place; copy it (copy_state) before changing it")
        return entry

    def put(self, snapshot: GameSnapshot, epoch: int | None = None) -> None:
        """Keep ``snapshot`` unless a newer version is already held, or a :meth:`forget` came after
        ``epoch`` (when given), since the snapshot may then hold seats older than its version."""
        if epoch is not None and epoch != self._epoch:
            return
        held = self._entries.get(snapshot.game_id)
        if held is not None and held.version > snapshot.version:
            return
        self._entries[snapshot.game_id] = snapshot
        self._entries.move_to_end(snapshot.game_id)
        if self._check_unchanged:
            self._written[snapshot.game_id] = orjson.dumps(snapshot.state)
        while len(self._entries) > self._capacity:
            dropped, _ = self._entries.popitem(last=False)
            self._written.pop(dropped, None)

    def heard(self, game_id: int, version: int) -> None:
        """Note that ``game_id`` reached ``version`` somewhere (a fan-out notice, a resync)."""
        if version > self._heard.get(game_id, -1):
            self._heard[game_id] = version
        self._heard.move_to_end(game_id)
        while len(self._heard) > 2 * self._capacity:
            self._heard.popitem(last=False)

    def newest_version(self, game_id: int) -> int:
        """The newest version of ``game_id`` this process holds or has heard of (-1: none)."""
        entry = self._entries.get(game_id)
        return max(entry.version if entry is not None else -1, self._heard.get(game_id, -1))

    def current(self, game_id: int) -> GameSnapshot | None:
        """The held snapshot of ``game_id`` unless a newer version has been heard of, else ``None``."""
        entry = self.get(game_id)
        if entry is None or entry.version < self._heard.get(game_id, -1):
            return None
        return entry

    def forget(self, game_id: int) -> None:
        """Drop ``game_id`` (its table changed outside the move pipeline) and refuse snapshots read before now."""
        self._epoch += 1
        self._entries.pop(game_id, None)
        self._written.pop(game_id, None)


class ReplayCache:
    """Replays (``app/services/games/replays.py``): states folded to, by ``(game_id, version)``, an LRU of at
    most ``capacity``.  Committed moves never change, so a kept state never goes stale."""

    def __init__(self, capacity: int = 256) -> None:
        self._states: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        self._capacity = capacity

    def nearest(self, game_id: int, version: int) -> tuple[int, dict[str, Any]] | None:
        """The kept state of ``game_id`` with the highest version not above ``version``."""
        versions = sorted(v for g, v in self._states if g == game_id)
        index = bisect.bisect_right(versions, version)
        if index == 0:
            return None
        key = (game_id, versions[index - 1])
        self._states.move_to_end(key)
        return key[1], self._states[key]

    def keep(self, game_id: int, version: int, state: dict[str, Any]) -> None:
        """Remember ``state`` as ``game_id`` at ``version`` (callers never change a kept state)."""
        self._states[(game_id, version)] = state
        self._states.move_to_end((game_id, version))
        while len(self._states) > self._capacity:
            self._states.popitem(last=False)
