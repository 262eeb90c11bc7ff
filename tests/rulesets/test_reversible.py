"""Which moves each game lets a player take back (``Ruleset.is_reversible``).

The conformance kit checks every game's reversible moves revealed nothing; these name the rules.
"""

from app.rulesets.base import Ruleset
from app.rulesets.heroes.rules import Heroes
from app.rulesets.nimalia.rules import Nimalia
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.through_the_desert.rules import ThroughTheDesert


def first_move(ruleset: Ruleset, state, seat=None):
    """``(state before, seat, move, state after)`` of the seat's (default: the lowest to act) first legal move."""
    seat = min(ruleset.to_act(state)) if seat is None else seat
    move = ruleset.legal_moves(state, seat)[0]
    return state, seat, move, ruleset.apply(state, seat, move)[0]


def test_the_base_contract_allows_no_take_back():
    class Plain(Nimalia):
        is_reversible = Ruleset.is_reversible

    assert Plain().is_reversible(*first_move(Plain(), Plain().setup(2, Plain().parse_options({}), 5))) is False


def test_through_the_desert_every_placement_may_be_taken_back():
    ruleset = ThroughTheDesert()
    state = ruleset.setup(2, ruleset.parse_options({}), 11)
    for _ in range(12):  # palm trees or leaders, then camels
        before, seat, move, state = first_move(ruleset, state)
        assert ruleset.is_reversible(before, seat, move, state), move


def test_nimalia_a_face_down_choice_but_not_the_one_that_reveals_the_step():
    ruleset = Nimalia()
    state = ruleset.setup(2, ruleset.parse_options({}), 3)
    first = first_move(ruleset, state, seat=0)
    assert ruleset.is_reversible(*first)  # D2: face down, nothing shown
    last = first_move(ruleset, first[3], seat=1)
    assert not ruleset.is_reversible(*last)  # D3/D4: the step closed, cards revealed and passed


def test_nomadi_a_placed_stone_but_never_a_roll():
    ruleset = Nomadi()
    state = ruleset.setup(2, ruleset.parse_options({"first_player": "host"}), 9)
    while state["phase"] != "roll":
        before, seat, move, state = first_move(ruleset, state)
        assert move.type == "place" and ruleset.is_reversible(before, seat, move, state)
    before, seat, move, state = first_move(ruleset, state)
    assert move.type == "roll" and not ruleset.is_reversible(before, seat, move, state)


def test_heroes_the_nomad_and_an_action_but_not_a_skip():
    ruleset = Heroes()
    state = ruleset.setup(2, ruleset.parse_options({}), 4)
    before, seat, move, state = first_move(ruleset, state)
    assert move.type == "place_nomad" and ruleset.is_reversible(before, seat, move, state)  # NW-1
    recruit = next(move for move in ruleset.legal_moves(state, 0) if move.type == "recruit")
    followed = ruleset.apply(state, 0, recruit)[0]
    assert ruleset.is_reversible(state, 0, recruit, followed)
    skip = next(move for move in ruleset.legal_moves(followed, 1) if move.type == "skip")
    assert not ruleset.is_reversible(followed, 1, skip, ruleset.apply(followed, 1, skip)[0])
