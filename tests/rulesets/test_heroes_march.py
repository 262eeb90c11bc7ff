"""The March (spec 1.2, 1.7 "Command Action: March"): speed, deserts, stops, limits, the
Tower<->Capital link.  Speeds are house values: Serf 2, Warrior 2, Hero 3."""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove
from app.rulesets.heroes.moves import March
from tests.rulesets.heroes_fixtures import A, B, RULES, play, position, put, texts, units


def destinations(state, seat=A, origin="N_capital", **army):
    """The destinations of the legal token marches of exactly ``army`` from ``origin``."""
    want = {"serf": 0, "warrior": 0, "hero": 0, "mercenary": 0, **army}
    return {
        move.destination for move in RULES.legal_moves(state, seat)
        if move.type == "march" and move.origin == origin and move.units == want
    }


def test_a_serf_moves_two_regions_and_stops_on_entering_the_desert():
    state = position()
    put(state, "N_capital", A, serf=1)
    # N_meadow is 2 steps through N_desert, where the march must stop; round the ring it is 3
    assert destinations(state, serf=1) == {"N_desert", "N_plains", "N_swamp", "N_forest", "N_mountain"}


def test_an_army_moves_at_the_speed_of_its_slowest_unit():
    state = position()
    put(state, "N_capital", A, serf=1, hero=1)
    hero_alone = destinations(state, hero=1)
    # 3 steps: N_meadow round the ring, and across the ferries to W_mountain and E_forest
    assert hero_alone == {"N_desert", "N_plains", "N_swamp", "N_forest", "N_mountain", "N_meadow", "W_mountain", "E_forest"}
    assert destinations(state, serf=1, hero=1) == destinations(state, serf=1)


def test_a_march_may_leave_a_desert_with_a_later_move():
    state = position()
    put(state, "N_desert", A, warrior=1)
    assert destinations(state, origin="N_desert", warrior=1) >= {"N_meadow", "E_forest", "W_mountain"}


@pytest.mark.parametrize("blocker", ["units", "tower"])
def test_a_march_stops_on_entering_an_opponents_units_or_tower(blocker):
    state = position()
    put(state, "N_capital", A, serf=1)
    if blocker == "units":
        put(state, "N_plains", B, serf=1)
    else:
        state["regions"]["N_plains"]["tower"] = B
    reach = destinations(state, serf=1)
    assert "N_plains" in reach and "N_forest" not in reach  # N_forest is only reachable through N_plains


def test_a_march_stops_on_entering_an_opponents_capital():
    state = position()
    put(state, "S_desert", A, hero=1)
    reach = destinations(state, origin="S_desert", hero=1)
    assert "S_capital" in reach
    state["regions"]["S_desert"]["units"] = {}
    put(state, "S_plains", A, hero=1)
    # S_swamp is 2 steps through S_capital (seat 1's, standing), else 2 through the desert or 4
    # round the ring: a Hero (speed 3) cannot get there, because the capital stops it
    reach = destinations(state, origin="S_plains", hero=1)
    assert "S_capital" in reach and "S_swamp" not in reach


def test_unoccupied_capital_regions_do_not_stop_a_march():
    state = position()  # 2 players: E_capital stands empty
    put(state, "E_plains", A, serf=1)
    assert "E_swamp" in destinations(state, origin="E_plains", serf=1)  # E_plains - E_capital - E_swamp


def test_five_unit_limit_applies_after_the_move_not_while_passing():
    state = position()
    put(state, "N_capital", A, serf=3)
    put(state, "N_plains", A, warrior=4)
    legal = [m for m in RULES.legal_moves(state, A) if m.type == "march" and m.origin == "N_capital"]
    assert {m.serf for m in legal if m.destination == "N_plains"} == {1}
    assert {m.serf for m in legal if m.destination == "N_forest"} == {1, 2, 3}  # through N_plains
    with pytest.raises(IllegalMove):
        RULES.apply(state, A, March(slot="march_1", origin="N_capital", destination="N_plains", serf=2))


def test_at_most_five_units_march_and_capitals_have_no_limit():
    state = position()
    put(state, "N_capital", A, serf=9)
    put(state, "N_plains", A, warrior=5)
    legal = [m for m in RULES.legal_moves(state, A) if m.type == "march"]
    assert max(m.serf for m in legal) == 5
    into_capital = [m for m in legal if m.origin == "N_plains" and m.destination == "N_capital"]
    assert {m.warrior for m in into_capital} == {1, 2, 3, 4, 5}
    after, _ = play(state, (A, March(slot="march_1", origin="N_plains", destination="N_capital", warrior=5)))
    assert units(after, "N_capital", A) == {"serf": 9, "warrior": 5, "hero": 0}


def test_the_capital_is_adjacent_to_the_owners_tower_regions_for_its_own_marches():
    """Spec 1.2: the capital region counts as adjacent to every region with one of that player's Towers."""
    state = position()
    state["regions"]["E_meadow"]["tower"] = A
    put(state, "N_capital", A, serf=1)
    reach = destinations(state, serf=1)
    assert {"E_meadow", "E_forest", "E_mountain"} <= reach  # 1 step to the Tower, then 1 more
    put(state, "E_meadow", A, serf=1)
    assert "N_capital" in destinations(state, origin="E_meadow", serf=1)
    state["turn"]["seat"] = B
    put(state, "S_capital", B, serf=1)
    assert "E_meadow" not in destinations(state, seat=B, origin="S_capital", serf=1)


def test_a_march_must_move_units_that_are_there_to_another_region():
    state = position()
    put(state, "N_capital", A, serf=1)
    for bad in (
        March(slot="march_1", origin="N_capital", destination="N_capital", serf=1),
        March(slot="march_1", origin="N_capital", destination="N_plains", warrior=1),
        March(slot="march_1", origin="N_capital", destination="N_plains"),
        March(slot="march_2", origin="N_capital", destination="N_plains", serf=1),  # march_1 is open
    ):
        with pytest.raises(IllegalMove):
            RULES.apply(state, A, bad)


def test_march_logs_in_words():
    state = position()
    put(state, "N_plains", A, serf=2, warrior=1)
    _, events = play(state, (A, March(slot="march_1", origin="N_plains", destination="N_desert", serf=2, warrior=1)))
    assert texts(events)[0] == "{seat0} marches 1 Warrior and 2 Serfs from North Plains to North Desert"
    assert events[0].args["destination"] == {"kind": "place", "text": "North Desert", "at": "N_desert"}
