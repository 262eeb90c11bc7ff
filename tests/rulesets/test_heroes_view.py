"""The Heroes view is an allow-list: it names every field it shows, so a field
added to the state is private until the view names it, and no secret of the state (the PRNG, an
unrevealed tactic choice, the order of the Enemy's deck) reaches a view it does not belong in."""

from __future__ import annotations

import pytest

from app.rulesets.heroes.moves import March, Tactic
from app.rulesets.testing import canonical
from tests.rulesets.heroes_fixtures import A, B, RULES, play, position, put, resources, solo_position

SECRET = "zz_new_secret"


def battle_position():
    """Seat 0 (3 Warriors, 3 Ore) attacks seat 1's Serf on North Plains: phase ``tactics``."""
    state = position()
    resources(state, A, ore=3)
    put(state, "N_capital", A, warrior=3)
    put(state, "N_plains", B, serf=1)
    return play(state, (A, March(slot="march_1", origin="N_capital", destination="N_plains", warrior=3)))[0]


def plant(state):
    """Put a new key, unknown to the view, at every level of the state's records."""
    state[SECRET] = SECRET
    state["players"][0][SECRET] = SECRET
    state["turn"][SECRET] = SECRET
    next(iter(state["regions"].values()))[SECRET] = SECRET
    for record in (state["pending"], state["last"], state["end"], state["mercenary"], state.get("solo")):
        if record is not None:
            record[SECRET] = SECRET
    pending = state["pending"]
    if pending is not None and "battle" in pending:
        pending["battle"][SECRET] = SECRET
    return state


def viewers(state):
    return [None, *range(state["n_players"])]


@pytest.mark.parametrize("make", [
    pytest.param(lambda: position(3), id="table"),
    pytest.param(lambda: position(2, nomads="mercenary"), id="mercenary"),
    pytest.param(battle_position, id="tactics"),
    pytest.param(lambda: solo_position(), id="solo"),
])
def test_a_field_added_to_the_state_appears_in_no_view(make):
    state = make()
    state["end"] = {"objective": "eXpand", "by": 0, "round": 1, "last_round": 2}
    plant(state)
    for viewer in viewers(state):
        assert SECRET not in canonical(RULES.view(state, viewer)), f"viewer {viewer}"


def test_a_revealed_battle_record_shows_only_its_named_fields():
    state = battle_position()
    state, _ = play(state, (A, Tactic(card="ambush", ore=3)), (B, Tactic(card="hold")))
    battle = state["last"]["battle"]
    battle[SECRET] = SECRET
    for viewer in viewers(state):
        view = RULES.view(state, viewer)
        assert view["last"]["battle"]["winner"] == battle["winner"]
        assert SECRET not in canonical(view)


def test_no_view_holds_the_prng_the_deck_order_or_another_seats_choice():
    state = battle_position()
    state, _ = play(state, (A, Tactic(card="ambush", ore=3)))
    for viewer in viewers(state):
        view = RULES.view(state, viewer)
        assert "rng" not in view and "choices" not in view["pending"]
        assert ("mine" in view["pending"]) == (viewer == A)
    solo = solo_position()
    view = RULES.view(solo, A)
    assert "deck" not in view["solo"] and view["solo"]["deck_size"] == len(solo["solo"]["deck"])


def test_a_view_is_a_copy():
    state = position(2)
    before = canonical(state)
    view = RULES.view(state, A)
    view["players"][0]["resources"]["ore"] = 99
    view["regions"]["N_capital"]["units"].clear()
    assert canonical(state) == before
