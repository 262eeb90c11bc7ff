"""The per-process game cache: it only moves forward, and a seating change is never overwritten by a
snapshot read before it (the race behind a bot that never took over a seat its person had left)."""

from __future__ import annotations

from app.services.games.cache import GameCache, GameSnapshot
from app.services.tables.seating import SeatInfo


def snapshot(version: int, takeover: str | None = None) -> GameSnapshot:
    seats = (SeatInfo(0, 1, "Ana", takeover=takeover), SeatInfo(1, 2, "Bo"))
    return GameSnapshot(7, "toy-race", "running", version, {"turn": version}, seats, False, None)


def test_an_older_version_never_replaces_a_newer_one():
    cache = GameCache()
    cache.put(snapshot(3))
    cache.put(snapshot(2))
    assert cache.get(7).version == 3


def test_a_snapshot_read_before_a_seating_change_is_dropped():
    cache = GameCache()
    cache.put(snapshot(0))
    epoch = cache.epoch()          # a reader starts loading version 0 with the old seats...
    cache.forget(7)                # ...Ana leaves (seats change, version stays 0)...
    cache.put(snapshot(0), epoch)  # ...and the reader's stale snapshot arrives late
    assert cache.get(7) is None
    fresh = cache.epoch()
    cache.put(snapshot(0, takeover="left"), fresh)
    assert cache.get(7).seats[0].takeover == "left"


def test_the_capacity_evicts_the_least_recently_used_game():
    cache = GameCache(capacity=2)
    for game_id in (1, 2):
        cache.put(GameSnapshot(game_id, "toy-race", "running", 0, {}, (), False, None))
    cache.get(1)
    cache.put(GameSnapshot(3, "toy-race", "running", 0, {}, (), False, None))
    assert cache.get(2) is None and cache.get(1) is not None and cache.get(3) is not None


def test_replay_cache_finds_the_nearest_kept_state_below_a_version():
    from app.services.games.cache import ReplayCache

    replays = ReplayCache(capacity=3)
    for version in (0, 50, 100):
        replays.keep(7, version, {"at": version})
    replays.keep(8, 60, {"at": 60})  # another game; the capacity drops the least recently used: game 7 at 0
    assert replays.nearest(7, 99) == (50, {"at": 50})
    assert replays.nearest(7, 100) == (100, {"at": 100})
    assert replays.nearest(7, 20) is None
    assert replays.nearest(8, 59) is None and replays.nearest(9, 1000) is None


def test_the_context_makes_the_cache_the_first_to_hear_of_a_seating_change():
    """Whatever subscribed to the fan-out before the context was built (the hub, the bot driver),
    it reads no snapshot with the seats from before the change."""
    from app.fanout import LocalFanout, Marker
    from app.services.context import Context

    fanout = LocalFanout()
    held_when_told: list[GameSnapshot | None] = []
    fanout.subscribe(lambda game_id, version: held_when_told.append(context.cache.get(game_id)))
    context = Context(settings=None, engine=None, sessions=None, registry=None, fanout=fanout)
    context.cache.put(snapshot(4))

    fanout.committed(7, Marker.SEATING_CHANGED)

    assert held_when_told == [None]


def test_a_state_changed_in_place_is_found_at_the_next_read():
    import pytest

    from app.services.games.cache import CachedStateChanged

    cache = GameCache(check_unchanged=True)
    held = snapshot(2)
    cache.put(held)
    assert cache.get(7) is held  # unchanged: read as it was put

    held.state["turn"] = 99  # what a reader must never do: the next reader would see a state no move made

    with pytest.raises(CachedStateChanged):
        cache.get(7)
