"""The per-process game cache: it only moves forward, and a seating change is never overwritten by a
snapshot read before it (the race behind a bot that never took over a seat its person had left)."""

from __future__ import annotations

from app.services.cache import GameCache, GameSnapshot
from app.services.seating import SeatInfo


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
    from app.services.cache import ReplayCache

    replays = ReplayCache(capacity=3)
    for version in (0, 50, 100):
        replays.keep(7, version, {"at": version})
    replays.keep(8, 60, {"at": 60})  # another game; the capacity drops the least recently used: game 7 at 0
    assert replays.nearest(7, 99) == (50, {"at": 50})
    assert replays.nearest(7, 100) == (100, {"at": 100})
    assert replays.nearest(7, 20) is None
    assert replays.nearest(8, 59) is None and replays.nearest(9, 1000) is None
