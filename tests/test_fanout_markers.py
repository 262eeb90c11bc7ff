"""The fan-out's marker versions are one enum (``app.fanout.Marker``)."""

from app.fanout import Marker, decode_batch, encode_batch, game_changed


def test_markers_are_distinct_negative_numbers_apart_from_versions():
    assert [(marker.name, int(marker)) for marker in Marker] == [
        ("SEATING_CHANGED", -1), ("CHAT_POSTED", -2), ("REMATCH_STARTED", -3), ("LOGGED_OUT", -4),
        ("TABLE_DELETED", -5), ("CHAT_REMOVED", -6)]


def test_game_changed_is_a_version_or_a_seating_change_only():
    assert game_changed(0) and game_changed(17) and game_changed(Marker.SEATING_CHANGED)
    assert not any(game_changed(marker) for marker in (Marker.CHAT_POSTED, Marker.REMATCH_STARTED, Marker.LOGGED_OUT,
                                                  Marker.TABLE_DELETED, Marker.CHAT_REMOVED))


def test_markers_cross_processes_as_their_numbers():
    payloads = encode_batch("p1", [(5, 3), (5, Marker.CHAT_POSTED), (5, 4), (9, Marker.LOGGED_OUT),
                                   (5, Marker.CHAT_POSTED)])
    assert payloads == ["p1;5:4,5:-2,9:-4"]
    origin, news = decode_batch(payloads[0])
    assert news == [(5, 4), (5, Marker.CHAT_POSTED), (9, Marker.LOGGED_OUT)]
