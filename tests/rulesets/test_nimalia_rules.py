"""Spec §3: setup, the simultaneous draft with hidden choices, passing, placement, round end."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from app.rulesets.base import IllegalMove, Rng
from app.rulesets.nimalia.cards import card_token
from app.rulesets.nimalia.moves import Place
from app.rulesets.nimalia.objectives import OBJECTIVES
from app.rulesets.nimalia.options import Options
from app.rulesets.nimalia.placement import legal_anchors, reserve_grid
from app.rulesets.nimalia.rules import objective_combinations
from app.rulesets.testing import canonical
from tests.rulesets.nimalia_fixtures import (
    RULES,
    first_legal,
    new_state,
    place,
    play_step,
    unused_cards,
    with_placements,
)

# -- setup (S1 - S4, D-5) -------------------------------------------------------------------------


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_s4_fifteen_cards_per_player_and_three_dealt_each(n_players):
    state = new_state(n_players)
    assert [len(hand) for hand in state["hands"]] == [3] * n_players
    assert len(state["deck"]) == 15 * n_players - 3 * n_players
    cards = [card for hand in state["hands"] for card in hand] + state["deck"]
    assert len(set(cards)) == 15 * n_players
    assert state["scores"] == [0] * n_players  # S3
    assert RULES.to_act(state) == set(range(n_players))


def test_setup_refuses_one_or_five_players():
    for count in (1, 5):
        with pytest.raises(ValueError):
            new_state(count)


def test_s2_592_legal_objective_sets_one_face_per_colour_from_four_cards():
    combinations = objective_combinations("all")
    assert len(combinations) == 592  # the publisher's figure
    for chosen in combinations:
        assert [OBJECTIVES[chosen[c]].colour for c in ("blue", "green", "yellow", "red")] == ["blue", "green", "yellow", "red"]
        assert len({OBJECTIVES[face].card for face in chosen.values()}) == 4


def test_d5_goal_levels_restrict_the_faces():
    # counted by hand from the §2.2 levels: easy = E+M faces (225 sets), difficult = M+D (104 sets)
    easy, difficult = objective_combinations("easy"), objective_combinations("difficult")
    assert (len(easy), len(difficult)) == (225, 104)
    assert all(OBJECTIVES[face].level != "D" for chosen in easy for face in chosen.values())
    assert all(OBJECTIVES[face].level != "E" for chosen in difficult for face in chosen.values())
    for seed in range(10):
        state = new_state(2, seed=seed, goal_level="difficult")
        assert state["objectives"] in difficult


def test_d5_first_game_set():
    state = new_state(3, first_game=True)
    assert state["objectives"] == {"blue": 5, "green": 19, "yellow": 4, "red": 16}


def test_d5_draw_varies_with_the_seed():
    drawn = {json.dumps(new_state(2, seed=seed)["objectives"], sort_keys=True) for seed in range(30)}
    assert len(drawn) > 20


def test_options_reject_unknown_keys():
    with pytest.raises(ValidationError):
        RULES.parse_options({"goal_level": "all", "colour": "red"})
    with pytest.raises(ValidationError):
        RULES.parse_options({"goal_level": "hard"})
    assert RULES.parse_options({}) == Options()


# -- placement (P1 - P6) --------------------------------------------------------------------------


def test_tp1_first_card_goes_at_the_origin():
    state = new_state(2)
    card = state["hands"][0][0]
    place(state, 0, card, 90, (0, 0))  # legal, any card and rotation
    with pytest.raises(IllegalMove, match="P1"):
        place(state, 0, card, 0, (3, 3))  # the spec's (3,3) is our (0,0): positions count from the first card
    assert legal_anchors({}) == [(0, 0)]


def test_tp2_a_later_card_must_cover_an_occupied_space():
    state = new_state(2)
    [first] = unused_cards(state, 1)
    state = with_placements(state, 0, [(first, 0, (0, 0))])
    card = state["hands"][0][0]
    with pytest.raises(IllegalMove, match="P2"):
        place(state, 0, card, 0, (0, 2))
    place(state, 0, card, 0, (1, 1))  # covers 1 space
    place(state, 0, card, 180, (0, 0))  # covers all 4
    assert legal_anchors(reserve_grid(state, 0)) == [(r, c) for r in (-1, 0, 1) for c in (-1, 0, 1)]


def test_tp3_the_reserve_must_fit_a_6x6_window():
    state = new_state(2)
    cards = unused_cards(state, 4)
    state = with_placements(state, 0, [(card, 0, (0, col)) for card, col in zip(cards, range(4))])  # columns 0..4
    hand = state["hands"][0][0]
    place(state, 0, hand, 0, (0, 4))  # columns 0..5: width 6
    place(state, 0, hand, 0, (0, -1))  # columns -1..4: width 6
    with pytest.raises(IllegalMove, match="P2"):
        place(state, 0, hand, 0, (0, 5))  # covers nothing (and would be 7 wide)
    wider = with_placements(state, 0, [(card, 0, (0, col)) for card, col in zip(unused_cards(state, 5), range(5))])
    with pytest.raises(IllegalMove, match="P4: your reserve would span 2 x 7"):
        place(wider, 0, hand, 0, (0, -1))  # columns -1..5
    with pytest.raises(IllegalMove, match="P4"):
        place(wider, 0, hand, 0, (0, 5))


def test_p4_vertical_limit_too():
    state = new_state(2)
    cards = unused_cards(state, 5)
    state = with_placements(state, 0, [(card, 0, (row, 0)) for card, row in zip(cards, range(5))])  # rows 0..5
    hand = state["hands"][0][0]
    with pytest.raises(IllegalMove, match="P4"):
        place(state, 0, hand, 0, (-1, 0))
    anchors = legal_anchors(reserve_grid(state, 0))
    assert all(0 <= row <= 4 for row, _ in anchors)


def test_d2_only_a_card_of_your_hand():
    state = new_state(2)
    other = state["hands"][1][0]
    with pytest.raises(IllegalMove, match="D2: that card is not in your hand") as caught:
        place(state, 0, other)
    assert card_token(other) not in caught.value.message  # the error names no hidden card


def test_p5_cards_only_ever_go_on_top():
    state = new_state(2)
    state, _ = play_step(state)
    seat0 = state["placements"][0][0]
    card = state["hands"][0][0]
    state, _ = place(state, 0, card, 0, tuple(seat0["at"]))
    state, _ = play_step(state, [1])
    grid = reserve_grid(state, 0)
    assert {space.card for space in grid.values()} == {card}  # the first card is wholly covered


def test_legal_moves_are_every_card_rotation_and_anchor():
    state = new_state(2)
    moves = RULES.legal_moves(state, 0)
    assert len(moves) == 3 * 4 * 1
    state, _ = play_step(state)
    moves = RULES.legal_moves(state, 0)
    assert len(moves) == 2 * 4 * 9  # two cards, four rotations, 3 x 3 anchors around one card
    for move in moves:
        assert RULES.parse_move(json.loads(json.dumps(RULES.dump_move(move)))) == move


# -- the simultaneous draft (D1 - D5) -------------------------------------------------------------


def test_d2_every_seat_acts_at_once_and_leaves_to_act_after_choosing():
    state = new_state(3)
    state, _ = RULES.check_and_apply(state, 1, first_legal(state, 1))
    assert RULES.to_act(state) == {0, 2}
    assert RULES.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove) as caught:
        RULES.check_and_apply(state, 1, first_legal(new_state(3), 1))
    assert caught.value.code == "not_your_turn"
    with pytest.raises(IllegalMove) as caught:
        RULES.apply(state, 1, first_legal(new_state(3), 1))
    assert caught.value.code == "not_your_turn"  # a choice is final until the step closes


def test_d2_the_order_of_simultaneous_choices_does_not_matter():
    state = new_state(3)
    moves = {seat: first_legal(state, seat) for seat in range(3)}
    results = []
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        current = state
        for seat in order:
            current, _ = RULES.check_and_apply(current, seat, moves[seat])
        results.append(canonical(current))
    assert results[0] == results[1] == results[2]


def test_d2_a_choice_stays_hidden_until_everyone_has_chosen():
    state = new_state(2)
    move = first_legal(state, 0)
    state, events = RULES.check_and_apply(state, 0, move)
    assert state["placements"][0] == []  # not on the reserve yet
    for viewer in (1, None):
        text = canonical(RULES.view(state, viewer))
        assert move.card not in text
        assert RULES.view(state, viewer)["players"][0]["chosen"] is True
        assert RULES.view(state, viewer)["players"][0]["spaces"] == []
    mine = RULES.view(state, 0)
    assert mine["my_choice"]["card"] == move.card
    public = [e.text for e in events if e.seats is None]
    assert public == ["{seat0} has chosen a card"]
    # seat 1 chooses: both are revealed together
    state, events = RULES.check_and_apply(state, 1, first_legal(state, 1))
    for viewer in (0, 1, None):
        view = RULES.view(state, viewer)
        assert [len(p["spaces"]) for p in view["players"]] == [4, 4]
        assert view["players"][0]["cards"][0]["card"] == move.card
    assert any("{seat0} placed card" in e.text and e.seats is None for e in events)
    assert any("{seat1} placed card" in e.text and e.seats is None for e in events)


@pytest.mark.parametrize(
    "n_players, round_number, receiver_of_seat_0",
    [(3, 1, 1), (3, 2, 2), (4, 1, 1), (4, 2, 3), (4, 3, 1), (2, 1, 1), (2, 2, 1)],
)
def test_d3_d5_hands_pass_left_in_odd_rounds_right_in_even(n_players, round_number, receiver_of_seat_0):
    state = new_state(n_players)
    state["round"] = round_number
    kept = sorted(state["hands"][0])
    choice = first_legal(state, 0)
    kept.remove(int(choice.card[-2:]))
    state, _ = RULES.check_and_apply(state, 0, choice)
    for seat in range(1, n_players):
        state, events = RULES.check_and_apply(state, seat, first_legal(state, seat))
    assert sorted(state["hands"][receiver_of_seat_0]) == kept
    assert state["step"] == 2
    # only the new holder and seat 0, which passed them, see the passed cards
    for viewer in [None, *range(n_players)]:
        text = canonical(RULES.view(state, viewer))
        for card in kept:
            assert (card_token(card) in text) == (viewer in (0, receiver_of_seat_0))
    assert RULES.view(state, 0)["passed_on"] == [{"seat": receiver_of_seat_0, "cards": [card_token(c) for c in kept]}]
    passes = [e for e in events if "You received" in e.text]
    assert all(len(e.seats) == 1 for e in passes)
    assert not any(card_token(card) in e.text for e in events for card in kept)


def test_a_seat_knows_the_hands_it_passed_on_and_its_bots_plan_with_them():
    """2 players, round 1 (passing left): seat 0 is dealt three cards, places the first and passes
    the other two to seat 1; on step 2 seat 1 chooses one of them and passes the last back.  Seat 0
    saw every one of those cards, so its view says where they are, and every world its bots
    imagine gives seat 1 exactly them; seat 1's hand of step 1 was never seen by seat 0."""
    state = new_state(2)
    dealt = sorted(state["hands"][0])
    assert RULES.view(state, 0)["passed_on"] == []  # step 1: nothing passed yet
    state, _ = place(state, 0, dealt[0])
    state, _ = RULES.check_and_apply(state, 1, first_legal(state, 1))
    passed = [card_token(number) for number in dealt[1:]]
    assert RULES.view(state, 0)["passed_on"] == [{"seat": 1, "cards": passed}]
    assert "passed_on" not in RULES.view(state, None)
    for seed in range(5):
        world = RULES.determinize(RULES.view(state, 0), 0, Rng(seed))
        assert sorted(world["hands"][1]) == dealt[1:] and world["picks"][1] is None
    state, _ = RULES.check_and_apply(state, 1, Place(card=passed[1], rotation=0, at=legal_anchors(reserve_grid(state, 1))[0]))
    for seed in range(5):  # seat 1 chose one of the two, face down: which one, seat 0 cannot know
        world = RULES.determinize(RULES.view(state, 0), 0, Rng(seed))
        assert sorted([*world["hands"][1], world["picks"][1]["card"]]) == dealt[1:]
    assert RULES.view(state, 0)["passed_on"] == [{"seat": 1, "cards": passed}]
    state, _ = RULES.check_and_apply(state, 0, first_legal(state, 0))  # the step closes: cards revealed, passed
    assert state["step"] == 3
    # Seat 1 now holds what seat 0 passed on this step; what was left of its first hand came back to it.
    assert RULES.view(state, 0)["passed_on"] == [{"seat": 1, "cards": [card_token(state["hands"][1][0])]}]
    assert state["hands"][0] == [dealt[1]]  # seat 1 chose dealt[2] from them


def test_d4_d6_three_steps_then_scoring_and_a_new_round():
    state = new_state(2, first_game=True)
    for step in (1, 2, 3):
        assert state["step"] == step
        state, events = play_step(state)
    assert state["round"] == 2 and state["step"] == 1
    assert [len(p) for p in state["placements"]] == [3, 3]
    assert [len(h) for h in state["hands"]] == [3, 3]
    assert len(state["deck"]) == 30 - 12
    [record] = state["history"]
    assert [s["colour"] for s in record["steps"]] == ["blue", "green"]  # round 1 scores blue, green
    grids = [reserve_grid(state, seat) for seat in range(2)]
    assert record["steps"][0]["points"] == OBJECTIVES[5].score(grids)
    assert any(e.render(("Ana", "Ben")).startswith("Round 1 scoring: Ana blue ") for e in events)


def test_d6_the_game_ends_after_round_5_with_a_result():
    state = new_state(4, seed=3)
    while RULES.to_act(state):
        state, _ = play_step(state, sorted(RULES.to_act(state)))
    assert state["over"] and state["round"] == 5
    assert [len(p) for p in state["placements"]] == [15] * 4
    assert state["deck"] == [] and all(hand == [] for hand in state["hands"])
    assert [r["round"] for r in state["history"]] == [1, 2, 3, 4, 5]
    result = RULES.result(state)
    assert result.scores == state["history"][-1]["after"]
    assert all(sum(parts.values()) == score for parts, score in zip(result.breakdown, result.scores))
    with pytest.raises(IllegalMove, match="D6"):
        RULES.apply(state, 0, Place(card="nimalia-card-01", rotation=0, at=(0, 0)))
    assert RULES.legal_moves(state, 0) == []


def test_apply_never_mutates_its_input():
    state = new_state(2)
    before = canonical(state)
    RULES.apply(state, 0, first_legal(state, 0))
    assert canonical(state) == before


# -- views and secrets ----------------------------------------------------------------------------


def test_views_show_only_the_viewers_own_hand():
    state = new_state(3)
    for seat in range(3):
        view = RULES.view(state, seat)
        assert [card["card"] for card in view["hand"]] == [card_token(n) for n in sorted(state["hands"][seat])]
        assert set(view["hand"][0]["spaces"]) == {"0", "90", "180", "270"}
    spectator = RULES.view(state, None)
    assert "hand" not in spectator and "my_choice" not in spectator
    assert [p["hand_size"] for p in spectator["players"]] == [3, 3, 3]


def test_views_never_show_the_deck():
    state = new_state(4)
    for viewer in [None, 0, 1, 2, 3]:
        text = canonical(RULES.view(state, viewer))
        assert not any(card_token(card) in text for card in state["deck"])
        assert str(state["rng"]) not in text


def test_views_are_allow_lists_a_new_state_field_is_private_until_a_view_names_it():
    """A field added to the state, at the top or inside any record (a seat's placement,
    its waiting choice, a round record and its steps), shows in no seat's view nor the spectator's."""
    state = new_state(3)
    for _ in range(3):
        state, _ = play_step(state)
    state, _ = place(state, 1, state["hands"][1][0], at=(-1, 0))
    assert state["history"] and state["picks"][1] is not None
    state["zz_new_secret"] = "zz-secret-value"
    state["options"]["zz_new_secret"] = "zz-secret-value"
    for record in [*state["placements"][0], state["picks"][1], state["history"][0], *state["history"][0]["steps"]]:
        record["zz_new_secret"] = "zz-secret-value"
    for viewer in [None, 0, 1, 2]:
        text = canonical(RULES.view(state, viewer))
        assert "zz_new_secret" not in text and "zz-secret-value" not in text, f"view of {viewer}"


def test_secrets_are_the_hand_and_the_unrevealed_choice():
    state = new_state(2)
    move = first_legal(state, 0)
    assert RULES.secrets(state, 0) == {card_token(n) for n in state["hands"][0]}
    state, _ = RULES.check_and_apply(state, 0, move)
    assert move.card in RULES.secrets(state, 0)
    state, _ = RULES.check_and_apply(state, 1, first_legal(state, 1))
    assert move.card not in RULES.secrets(state, 0)  # revealed: public now


def test_view_objectives_schedule_and_history():
    state = new_state(2, first_game=True)
    view = RULES.view(state, None)
    assert [(o["label"], o["colour"], o["rounds"]) for o in view["objectives"]] == [
        ("O5", "blue", [1, 3, 5]),
        ("O19", "green", [1, 2, 4]),
        ("O4", "yellow", [2, 4, 5]),
        ("O16", "red", [3, 4, 5]),
    ]
    assert view["schedule"][4] == {"round": 5, "colours": ["blue", "yellow", "red"]}
    assert view["passing"] == "left" and view["receives_from"] == [1, 0]
    for _ in range(3):
        state, _ = play_step(state)
    view = RULES.view(state, 1)
    assert view["passing"] == "right"
    assert view["history"][0]["steps"][0]["label"] == "O5"
