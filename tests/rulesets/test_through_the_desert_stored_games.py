"""Through the Desert games stored by earlier releases go on after an upgrade: their state has
the options of its day, without ``first_player`` (the start player was always drawn then); every
view of it and every move still works (scripts/smoke_upgrade.sh found the view failing)."""

from __future__ import annotations

from app.rulesets.through_the_desert.options import Options
from app.rulesets.through_the_desert.rules import ThroughTheDesert

RULES = ThroughTheDesert()


def stored_before_the_first_player_option(seed: int = 5) -> dict:
    state = RULES.setup(2, Options(), seed)
    del state["options"]["first_player"]
    return state


def test_a_game_stored_without_the_first_player_option_shows_and_plays_on():
    state = stored_before_the_first_player_option()
    for seat in (None, 0, 1):
        assert RULES.view(state, seat)["options"]["first_player"] == "random"  # drawn, as it was then
    for _ in range(6):
        seat = state["current"]
        state, _ = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    assert "first_player" not in state["options"]  # nothing rewritten behind the game's back
    assert RULES.view(state, 1)["options"]["first_player"] == "random"
