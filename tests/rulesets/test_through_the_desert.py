"""Through the Desert rules, one test per rule (Spec §3), expected values worked out by hand."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from app.rulesets.base import IllegalMove, MalformedMove, arg_text
from app.rulesets.through_the_desert.board import Board, hex_key
from app.rulesets.through_the_desert.moves import COLOURS, Camel, Leader, Palm, ReturnLeader
from app.rulesets.through_the_desert.options import Options
from app.rulesets.through_the_desert.rules import ThroughTheDesert
from app.rulesets.through_the_desert.scoring import largest_caravan_points
from tests.rulesets.through_the_desert_fixtures import RULES, A, B, area_sets, place, points_so_far, position

STANDARD = ThroughTheDesert()
SMALL_AREA_PALMS = {"2,2", "8,2", "13,3", "-2,9", "2,10", "9,9"}
ALL_PALMS = SMALL_AREA_PALMS | {"15,6"}

SEATS = tuple(f"{{seat{seat}}}" for seat in range(5))
"""Names that render a log entry as its English sentence with the seats left as placeholders."""


def sentence(event) -> str:
    """A log entry's English sentence with its seats and places left as placeholders (its other
    arguments, a camel's or a caravan's words and numbers, written out)."""
    def fill(match):
        arg = event.args.get(match.group(1))
        return match.group(0) if arg is None or arg["kind"] == "place" else arg_text(arg, SEATS)
    return re.sub(r"\{(\w+)\}", fill, event.text)


def new_game(n_players: int, seed: int = 2, ruleset: ThroughTheDesert = STANDARD, **options) -> dict:
    return ruleset.setup(n_players, Options(**options), seed)


def act(state: dict, move, ruleset: ThroughTheDesert = STANDARD) -> tuple[dict, list]:
    """The seat to act plays ``move``."""
    return ruleset.apply(state, state["current"], move)


def play_first_moves_until(state: dict, phase: str, ruleset: ThroughTheDesert = STANDARD) -> tuple[dict, int]:
    """Play the first legal move until ``phase`` starts; returns the state and the moves played."""
    played = 0
    while state["phase"] != phase:
        state, _ = act(state, ruleset.legal_moves(state, state["current"])[0], ruleset)
        played += 1
    return state, played


# -- setup (S-1 .. S-7, §1.2) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("n_players", "preset", "pile"),
    [(2, "classic", 22), (3, "classic", 26), (4, "classic", 30), (5, "classic", 29),
     (2, "zman", 20), (3, "zman", 25), (4, "zman", 30), (5, "zman", 30)],
)
def test_s4_pile_sizes_per_player_count_and_preset(n_players, preset, pile):
    state = new_game(n_players, piles=preset)
    assert STANDARD.view(state, None)["piles"] == {colour: pile for colour in COLOURS}


@pytest.mark.parametrize(("n_players", "spaces", "small"), [(2, 193, True), (3, 193, True), (4, 237, False), (5, 237, False)])
def test_s1_small_area_for_two_and_three_players(n_players, spaces, small):
    board = STANDARD.view(new_game(n_players), None)["board"]
    assert (len(board["spaces"]), board["small_area"]) == (spaces, small)
    assert len(board["mountains"]) == 7
    assert ([16, 0] in board["spaces"]) is not small  # beyond the thick line of row 0 (small_q_max 15)


@pytest.mark.parametrize("seed", range(4))
def test_s5_s6_palm_trees_and_wells_full_board(seed):
    state = new_game(4, seed=seed)
    oases = set(state["oases"])
    assert len(oases) == 5 and oases <= ALL_PALMS
    assert len(state["wells"]) == 43 + 2
    assert ALL_PALMS - oases <= set(state["wells"])  # S-6/A-18: palm spaces without a tree get a well
    assert Counter(w["value"] for w in state["wells"].values()) == {1: 15, 2: 15, 3: 15}


@pytest.mark.parametrize("seed", range(4))
def test_s5_s6_palm_trees_and_wells_small_area(seed):
    state = new_game(3, seed=seed)
    oases = set(state["oases"])
    assert len(oases) == 5 and oases <= SMALL_AREA_PALMS
    assert len(state["wells"]) == 33 + 1
    assert SMALL_AREA_PALMS - oases <= set(state["wells"]) and "15,6" not in state["wells"]
    assert "well_pool" not in state  # S-6: the 11 leftover tokens are gone, unseen


def test_s5_players_choose_palm_spaces_in_turn():
    state = new_game(2, palm_placement="choose")
    start = state["start_player"]
    assert STANDARD.view(state, None)["phase"] == "palms" and state["oases"] == []
    assert {hex_key(m.hex) for m in STANDARD.legal_moves(state, start)} == SMALL_AREA_PALMS
    choices = [(2, 2), (8, 2), (13, 3), (-2, 9), (9, 9)]
    for number, hex_ in enumerate(choices):
        assert state["current"] == (start + number) % 2
        state, events = act(state, Palm(hex=hex_))
    assert set(state["oases"]) == {hex_key(h) for h in choices}
    assert "2,10" in state["wells"]  # the one palm space left gets a well
    assert len(state["wells"]) == 34 and state["phase"] == "leaders"
    with pytest.raises(IllegalMove, match="S-5"):
        act(state, Palm(hex=(2, 10)))


def test_s5_palm_only_on_free_palm_space():
    state = new_game(2, palm_placement="choose")
    state, _ = act(state, Palm(hex=(2, 2)))
    with pytest.raises(IllegalMove, match="S-5: C4 already has a palm tree"):
        act(state, Palm(hex=(2, 2)))
    with pytest.raises(IllegalMove, match="S-5: G19 is not a palm space"):
        act(state, Palm(hex=(15, 6)))  # beyond the thick line with 2 players


def test_s7_start_player_comes_from_the_seed():
    starts = {new_game(4, seed=seed)["start_player"] for seed in range(20)}
    assert len(starts) > 1 and starts <= {0, 1, 2, 3}
    assert new_game(4, seed=5) == new_game(4, seed=5)


def test_s7_the_host_may_begin_and_the_deal_stays_that_of_the_seed():
    for seed in range(6):
        random_start, host_start = new_game(4, seed=seed), new_game(4, seed=seed, first_player="host")
        assert host_start["start_player"] == 0
        assert host_start["wells"] == random_start["wells"] and host_start["oases"] == random_start["oases"]


def test_s3_five_players_return_different_leaders_in_turn():
    state = new_game(5)
    start = state["start_player"]
    assert state["phase"] == "return_leaders" and state["current"] == start
    for number, colour in enumerate(COLOURS):
        seat = (start + number) % 5
        assert state["current"] == seat
        assert [m.colour for m in STANDARD.legal_moves(state, seat)] == list(COLOURS[number:])
        if number:
            with pytest.raises(IllegalMove, match="S-3"):
                act(state, ReturnLeader(colour=COLOURS[0]))
        state, _ = act(state, ReturnLeader(colour=colour))
    players = STANDARD.view(state, None)["players"]
    assert sorted(p["returned_leader"] for p in players) == sorted(COLOURS)
    assert all(len(p["leaders_in_hand"]) == 4 and p["returned_leader"] not in p["leaders_in_hand"] for p in players)
    assert state["phase"] == "leaders"


def test_s3_random_leader_return_deals_different_colours():
    state = new_game(5, leader_return="random")
    assert state["phase"] == "leaders"
    assert sorted(state["returned"]) == sorted(COLOURS)


# -- leaders (L-1 .. L-5) ---------------------------------------------------------------------


def leader_phase(seed: int = 2) -> dict:
    """A 2-player leader phase on the standard board; seed 2 has seat 0 starting and palm trees
    on (2, 2) and (8, 2), and wells on (4, 0) and (9, 0)."""
    state = new_game(2, seed=seed)
    assert state["start_player"] == 0 and {"2,2", "8,2"} <= set(state["oases"])
    assert {"4,0", "9,0"} <= set(state["wells"])
    return state


def test_l2a_leader_not_on_a_well():
    with pytest.raises(IllegalMove, match="L-2a"):
        act(leader_phase(), Leader(colour="pink", hex=(4, 0)))


def test_l2b_leader_not_on_an_oasis():
    with pytest.raises(IllegalMove, match="L-2b"):
        act(leader_phase(), Leader(colour="pink", hex=(2, 2)))


def test_l2c_leader_not_on_a_camel():
    state, _ = act(leader_phase(), Leader(colour="pink", hex=(6, 0)))
    with pytest.raises(IllegalMove, match="L-2c"):
        act(state, Leader(colour="green", hex=(6, 0)))


def test_l2d_leader_not_adjacent_to_an_oasis():
    state = leader_phase()
    with pytest.raises(IllegalMove, match="L-2d"):
        act(state, Leader(colour="pink", hex=(3, 2)))
    assert all(hex_key(m.hex) not in {"3,2", "1,2", "2,3", "2,1", "3,1", "1,3"} for m in STANDARD.legal_moves(state, 0))


def test_l2e_leader_not_adjacent_to_any_leader():
    state, _ = act(leader_phase(), Leader(colour="pink", hex=(6, 0)))
    with pytest.raises(IllegalMove, match="L-2e"):
        act(state, Leader(colour="green", hex=(7, 0)))  # another player's leader
    assert all(hex_key(m.hex) not in {"7,0", "5,0", "6,1", "5,1"} for m in STANDARD.legal_moves(state, 1))
    state, _ = act(state, Leader(colour="green", hex=(11, 6)))
    with pytest.raises(IllegalMove, match="L-2e"):
        act(state, Leader(colour="yellow", hex=(5, 0)))  # the player's own leader


def test_l2_leader_may_stand_next_to_a_well():
    state, _ = act(leader_phase(), Leader(colour="pink", hex=(10, 0)))  # (9, 0) is a well
    assert state["camels"]["10,0"] == {"seat": 0, "colour": "pink", "leader": True}


def test_l3_first_leader_must_be_a_new_colour():
    state, _ = act(leader_phase(), Leader(colour="pink", hex=(6, 0)))
    assert {m.colour for m in STANDARD.legal_moves(state, 1)} == set(COLOURS) - {"pink"}
    with pytest.raises(IllegalMove, match="L-3"):
        act(state, Leader(colour="pink", hex=(11, 6)))
    state, _ = act(state, Leader(colour="green", hex=(11, 6)))
    # round 2: any remaining colour, including one already on the board
    assert {m.colour for m in STANDARD.legal_moves(state, 0)} == set(COLOURS) - {"pink"}
    state, _ = act(state, Leader(colour="green", hex=(0, 6)))
    assert state["camels"]["0,6"]["colour"] == "green"


def test_l4_five_players_start_leader_matches_last_return():
    state = new_game(5)
    start = state["start_player"]
    for colour in COLOURS:
        state, _ = act(state, ReturnLeader(colour=colour))
    # the last player in turn order (seated before the start player) returned turquoise
    assert state["returned"][(start - 1) % 5] == "turquoise"
    assert {m.colour for m in STANDARD.legal_moves(state, start)} == {"turquoise"}
    with pytest.raises(IllegalMove, match="L-4"):
        act(state, Leader(colour="green", hex=(6, 0)))


@pytest.mark.parametrize(("n_players", "leaders"), [(2, 10), (3, 15), (4, 20)])
def test_l1_five_rounds_of_leaders(n_players, leaders):
    state, played = play_first_moves_until(new_game(n_players), "camels")
    assert played == leaders
    assert sum(camel["leader"] for camel in state["camels"].values()) == leaders
    assert state["current"] == state["start_player"]


def test_l1_five_players_place_four_rounds_and_each_colour_four_times():
    state, played = play_first_moves_until(new_game(5), "camels")
    assert played == 5 + 20  # 5 returns, then 4 rounds of 5 leaders
    assert Counter(camel["colour"] for camel in state["camels"].values()) == {colour: 4 for colour in COLOURS}


def test_l5_no_space_apart_from_leaders_drops_l2e():
    tiny = ThroughTheDesert(Board.hexagon(1, name="tiny"))
    state = new_game(2, ruleset=tiny)
    state, _ = act(state, Leader(colour="pink", hex=(0, 0)), tiny)
    assert len(tiny.legal_moves(state, state["current"])) == 6 * 4  # every neighbour, 4 new colours
    state, played = play_first_moves_until(state, "over", tiny)
    assert len(state["camels"]) == 7  # the board is full; the other 3 leaders left the game
    assert "T-6" in tiny.result(state).reason


# -- turns (T-1 .. T-7) -----------------------------------------------------------------------


def test_t3_first_round_single_camel_two_players():
    state, _ = play_first_moves_until(new_game(2, seed=4), "camels")
    start = state["start_player"]
    assert STANDARD.view(state, None)["camels_left"] == 1
    state, _ = act(state, STANDARD.legal_moves(state, start)[0])
    assert state["current"] == 1 - start and STANDARD.view(state, None)["camels_left"] == 2
    state, _ = act(state, STANDARD.legal_moves(state, 1 - start)[0])
    assert state["current"] == 1 - start and STANDARD.view(state, None)["camels_left"] == 1
    state, _ = act(state, STANDARD.legal_moves(state, 1 - start)[0])
    assert state["current"] == start and STANDARD.view(state, None)["camels_left"] == 2


@pytest.mark.parametrize("n_players", [3, 4, 5])
def test_t3_first_round_single_camel_first_two_players(n_players):
    state, _ = play_first_moves_until(new_game(n_players, seed=4), "camels")
    start = state["start_player"]
    expected = [1, 1] + [2] * (n_players - 2) + [2]
    for number, camels in enumerate(expected):
        seat = (start + number) % n_players
        assert (state["current"], STANDARD.view(state, None)["camels_left"]) == (seat, camels)
        for _ in range(camels):
            state, _ = act(state, STANDARD.legal_moves(state, seat)[0])


def test_t2_two_camels_one_at_a_time_then_the_turn_passes():
    state = position(leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink")}, current=A)
    state, _ = act(state, Camel(colour="pink", hex=(1, -1)), RULES)
    assert state["current"] == A and RULES.view(state, A)["camels_left"] == 1
    assert RULES.view(state, A)["last_placed"] == [[1, -1]]
    state, _ = act(state, Camel(colour="pink", hex=(1, -2)), RULES)
    assert state["current"] == B and RULES.view(state, B)["camels_left"] == 2
    assert RULES.view(state, B)["last_placed"] == [[1, -1], [1, -2]]
    state, _ = act(state, Camel(colour="pink", hex=(-1, 2)), RULES)
    assert RULES.view(state, B)["last_placed"] == [[-1, 2]]


LINE = ThroughTheDesert(Board("line", spaces=[(q, 0) for q in range(-2, 3)]))
FORK = ThroughTheDesert(Board("fork", spaces=[*((q, 0) for q in range(-2, 3)), (-2, 1)]))


def test_t5_player_who_cannot_place_passes():
    leaders = {(0, 0): (A, "green"), (2, 0): (B, "pink"), (-2, 0): (B, "yellow")}
    state = position(leaders=leaders, piles={"yellow": 0}, allowance=1, ruleset=LINE)
    state, events = act(state, Camel(colour="green", hex=(1, 0)), LINE)
    assert state["current"] == A  # B's pink is boxed in and the yellow pile is empty: B passes
    assert "{seat1} cannot place a camel and passes" in [e.text for e in events]
    assert LINE.view(state, A)["camels_left"] == 2


def test_t5_turn_ends_early_when_the_second_camel_has_no_space():
    leaders = {(2, 0): (A, "green"), (-1, 0): (B, "green"), (-2, 0): (B, "pink")}
    state = position(leaders=leaders, allowance=2, ruleset=FORK)
    state, _ = act(state, Camel(colour="green", hex=(1, 0)), FORK)
    # (0, 0) now touches both green caravans (P-5): A has nothing left to place
    assert state["current"] == B
    assert FORK.legal_moves(state, B) == [Camel(colour="pink", hex=(-2, 1)), Camel(colour="green", hex=(-2, 1))]


def test_t6_nobody_can_place_ends_the_game():
    leaders = {(0, 0): (A, "green"), (2, 0): (B, "pink"), (-2, 0): (B, "yellow")}
    state = position(leaders=leaders, piles={"yellow": 0}, allowance=2, ruleset=LINE)
    state, _ = act(state, Camel(colour="green", hex=(1, 0)), LINE)
    state, events = act(state, Camel(colour="green", hex=(-1, 0)), LINE)
    assert state["phase"] == "over" and LINE.to_act(state) == set()
    assert "T-6" in LINE.result(state).reason


def test_t7_no_camel_from_an_empty_pile():
    state = position(leaders={(2, -2): (A, "pink"), (-2, 2): (A, "green")}, piles={"pink": 0})
    assert {m.colour for m in RULES.legal_moves(state, A)} == {"green"}
    with pytest.raises(IllegalMove, match="T-7"):
        place(state, A, "pink", (1, -1))


def test_not_your_turn_and_wrong_phase():
    state = leader_phase()
    with pytest.raises(IllegalMove) as caught:
        STANDARD.apply(state, 1, Leader(colour="pink", hex=(6, 0)))
    assert caught.value.code == "not_your_turn"
    with pytest.raises(IllegalMove, match="T-2"):
        act(state, Camel(colour="pink", hex=(6, 0)))
    with pytest.raises(IllegalMove, match="S-3"):
        act(state, ReturnLeader(colour="pink"))
    assert STANDARD.legal_moves(state, 1) == []


# -- placement (P-1 .. P-7) -------------------------------------------------------------------


def test_p1_only_spaces_of_the_board_in_use():
    state = position(leaders={(3, -1): (A, "pink"), (-2, 2): (B, "pink")})
    with pytest.raises(IllegalMove, match="P-1"):
        place(state, A, "pink", (4, -1))
    small = position(leaders={(15, 0): (A, "pink"), (0, 6): (B, "pink")}, ruleset=STANDARD)
    with pytest.raises(IllegalMove, match="P-1: A17 is not a space"):
        place(small, A, "pink", (16, 0), STANDARD)  # beyond the thick line with 2 players


def test_p2_not_on_a_camel_or_an_oasis_but_on_a_well():
    state = position(leaders={(1, -1): (A, "pink"), (-2, 2): (B, "pink")}, oases=((0, 0),), wells={(2, -1): 1})
    state, _ = place(state, A, "pink", (1, 0))
    with pytest.raises(IllegalMove, match="P-2: A2 already holds a camel"):
        place(state, A, "pink", (1, 0))
    with pytest.raises(IllegalMove, match="P-2: A1 is an oasis"):
        place(state, A, "pink", (0, 0))
    state, _ = place(state, A, "pink", (2, -1))
    assert points_so_far(state, A) == 5 + 1


def test_p3_no_placement_inside_area():
    leaders = {(-1, 3): (A, "yellow"), (2, 0): (B, "turquoise")}
    ring = {(-1, 2): (A, "yellow"), (-1, 1): (A, "yellow"), (-2, 1): (A, "yellow")}
    state = position(leaders=leaders, camels=ring)
    state, _ = place(state, A, "yellow", (-3, 1))
    assert area_sets(state) == [(A, "yellow", {(-3, 2), (-3, 3), (-2, 2), (-2, 3)}, 4)]
    with pytest.raises(IllegalMove, match="P-3: row 2, hex 0 lies inside an enclosed area"):
        place(state, A, "yellow", (-2, 2))
    inside = {(-3, 2), (-3, 3), (-2, 2), (-2, 3)}
    assert not inside & {m.hex for m in RULES.legal_moves(dict(state, current=A), A)}


def test_p4_must_touch_own_caravan_of_that_colour():
    state = position(leaders={(2, -2): (A, "pink"), (-2, 0): (A, "green"), (-2, 2): (B, "pink")})
    with pytest.raises(IllegalMove, match="P-4"):
        place(state, A, "pink", (-1, 0))  # touches A's green only
    with pytest.raises(IllegalMove, match="P-4"):
        place(state, A, "pink", (-1, 2))  # touches B's pink only


def test_p5_no_camel_next_to_another_players_caravan_of_that_colour():
    state = position(leaders={(1, -1): (A, "pink"), (-1, 1): (B, "pink")})
    with pytest.raises(IllegalMove, match="P-5: another player's pink caravan is adjacent to A1"):
        place(state, A, "pink", (0, 0))
    assert (0, 0) not in {m.hex for m in RULES.legal_moves(state, A)}


def test_p6_other_colours_do_not_matter():
    state = position(leaders={(1, -1): (A, "pink"), (-1, 1): (B, "green")})
    state, _ = place(state, A, "pink", (0, 0))
    state, _ = place(state, B, "green", (-1, 0))  # next to A's pink camel
    assert state["camels"]["-1,0"]["colour"] == "green"


def test_p7_returned_colour_is_never_playable():
    state = position(
        leaders={(0, 0): (A, "pink"), (-3, 3): (1, "purple"), (3, -3): (2, "purple"), (0, 3): (3, "purple"), (3, 0): (4, "purple")},
        n_players=5,
    )
    assert all(m.colour == "pink" for m in RULES.legal_moves(state, A))
    with pytest.raises(IllegalMove, match="P-7: you have no purple leader"):
        place(state, A, "purple", (1, 0))


# -- wells and oases (W-1 .. W-4, O-1 .. O-5) -------------------------------------------------


def well_position(**options) -> dict:
    return position(leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink")}, wells={(1, -1): 3, (-1, 1): 1}, options=options)


def test_w1_w3_camel_on_a_well_takes_it():
    state, events = place(well_position(), A, "pink", (1, -1))
    assert "1,-1" not in state["wells"] and state["camels"]["1,-1"]["colour"] == "pink"
    assert [w["value"] for w in state["taken_wells"][A]] == [3]
    assert {"hex": [1, -1], "value": 3} not in RULES.view(state, None)["wells"]
    assert "{seat0} placed a pink camel on {hex} and took a well" in [sentence(e) for e in events]


def test_w2_hidden_well_values_in_other_views():
    state, events = place(well_position(), A, "pink", (1, -1))
    token = "well-01:3"
    assert RULES.secrets(state, A) == {token}
    own = RULES.view(state, A)
    assert own["my_wells"] == [token] and own["players"][A]["well_points"] == 3
    for viewer in (B, None):
        view = RULES.view(state, viewer)
        player = view["players"][A]
        assert (player["wells_taken"], player["well_points"], player["well_values"], player["points"]) == (1, None, None, None)
        assert token not in str(view)
    public = [e for e in events if e.seats is None]
    private = [e for e in events if e.seats is not None]
    assert public and all("worth" not in e.render(SEATS) for e in public)
    assert [(e.render(SEATS), e.seats) for e in private] == [("{seat0} took a well worth 3", (A,))]


def test_w2_values_revealed_when_the_game_is_over():
    state, _ = place(well_position(), A, "pink", (1, -1))
    over = dict(state, phase="over", current=None, end_reason="test")
    assert RULES.view(over, B)["players"][A]["well_points"] == 3
    assert RULES.secrets(over, A) == set()


def test_w2_option_off_shows_well_values_to_all():
    state, events = place(well_position(hide_well_values=False), A, "pink", (1, -1))
    assert RULES.view(state, B)["players"][A]["well_values"] == [3]
    assert RULES.secrets(state, A) == set()
    assert "{seat0} placed a pink camel on {hex} and took a well worth 3" in [sentence(e) for e in events]


def test_o3_one_camel_reaching_two_oases_scores_both():
    state = position(leaders={(1, -2): (A, "pink"), (-3, 3): (B, "pink")}, oases=((0, 0), (2, -1)))
    state, _ = place(state, A, "pink", (1, -1))
    assert points_so_far(state, A) == 10


def test_o5_enclosed_oasis_already_reached_pays_nothing_more():
    leaders = {(-1, 3): (A, "yellow"), (2, 0): (B, "turquoise")}
    state = position(leaders=leaders, oases=((-3, 3),))
    state, _ = place(state, A, "yellow", (-2, 3))
    assert points_so_far(state, A) == 5  # O-1: reached through adjacency
    for hex_ in ((-1, 2), (-1, 1), (-2, 1), (-3, 1)):
        state, _ = place(state, A, "yellow", hex_)
    assert area_sets(state) == [(A, "yellow", {(-3, 2), (-3, 3), (-2, 2)}, 2)]
    assert points_so_far(state, A) == 5


def test_e5_enclosure_resolves_before_the_second_camel():
    leaders = {(-1, 3): (A, "yellow"), (2, 0): (B, "turquoise")}
    ring = {(-1, 2): (A, "yellow"), (-1, 1): (A, "yellow"), (-2, 1): (A, "yellow")}
    state = position(leaders=leaders, camels=ring, wells={(-2, 2): 2}, current=A)
    state, _ = act(state, Camel(colour="yellow", hex=(-3, 1)), RULES)
    assert state["current"] == A and len(state["areas"]) == 1
    assert points_so_far(state, A) == 2  # W-4: the well inside went to the encloser at once


# -- end of the game (G-1 .. G-3, A-9, A-10) --------------------------------------------------


def end_position(**options) -> dict:
    return position(
        leaders={(2, -2): (A, "pink"), (-2, 0): (A, "green"), (-2, 2): (B, "pink")},
        piles={"pink": 1, "green": 1},
        options=options,
        current=A,
    )


def test_g2_end_of_turn_trigger():
    state, events = act(end_position(), Camel(colour="pink", hex=(1, -1)), RULES)
    assert state["phase"] == "camels" and state["current"] == A and state["final_turn"]
    assert "The pink pile is empty: the game ends after this turn" in [e.text for e in events]
    assert {m.colour for m in RULES.legal_moves(state, A)} == {"green"}
    state, events = act(state, Camel(colour="green", hex=(-1, 0)), RULES)
    assert state["phase"] == "over" and RULES.to_act(state) == set()
    assert RULES.result(state).reason == "the last pink camel was taken (G-1)"  # its code becomes a rule link
    assert sum(e.text.startswith("Game over") for e in events) == 1  # green ran out too


def test_g2_turn_ends_at_once_when_no_second_camel_can_be_placed():
    state = position(leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink")}, piles={"pink": 1}, current=A)
    state, _ = act(state, Camel(colour="pink", hex=(1, -1)), RULES)
    assert state["phase"] == "over"


def test_g1_pile_emptied_by_the_second_camel_ends_after_the_turn():
    state = position(
        leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink")}, piles={"pink": 2}, current=A
    )
    state, _ = act(state, Camel(colour="pink", hex=(1, -1)), RULES)
    assert state["phase"] == "camels" and not state["final_turn"]
    state, _ = act(state, Camel(colour="pink", hex=(1, -2)), RULES)
    assert state["phase"] == "over" and state["piles"]["pink"] == 0


def test_g3_immediate_trigger():
    state, events = act(end_position(end_trigger="immediate"), Camel(colour="pink", hex=(1, -1)), RULES)
    assert state["phase"] == "over" and RULES.to_act(state) == set() and RULES.legal_moves(state, A) == []
    assert RULES.view(state, A)["camels_left"] == 0
    assert "The pink pile is empty: the game ends at once" in [e.text for e in events]
    with pytest.raises(IllegalMove, match="G-1"):
        RULES.apply(state, A, Camel(colour="green", hex=(-1, 0)))


# -- final scoring (F-1 .. F-5) ---------------------------------------------------------------


def test_f1_strict_largest_gets_10_ties_get_5_each():
    assert largest_caravan_points([{"pink": 4}, {"pink": 3}, {"pink": 1}]) == [10, 0, 0]
    assert largest_caravan_points([{"pink": 4}, {"pink": 4}, {"pink": 4}]) == [5, 5, 5]
    assert largest_caravan_points([{"pink": 4}, {"green": 1}, {}]) == [10, 10, 0]  # no leader, no part


def test_f5_shared_victory_in_the_result():
    state = position(leaders={(2, -2): (A, "pink"), (-2, 2): (B, "pink")})
    over = dict(state, phase="over", current=None, end_reason="test")
    result = RULES.result(over)
    assert result.scores == [5, 5] and result.ranks == [1, 1]
    assert result.breakdown == [{"caravans": 5, "wells": 0, "oases": 0, "areas": 0}] * 2
    assert RULES.result(state) is None


# -- the wire: moves and views ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("wire", "move", "text"),
    [
        ({"type": "leader", "colour": "pink", "hex": [3, 4]}, Leader(colour="pink", hex=(3, 4)), "pink leader on E6"),
        ({"type": "camel", "colour": "green", "hex": [-1, 2]}, Camel(colour="green", hex=(-1, 2)), "green camel on C1"),
        ({"type": "return_leader", "colour": "purple"}, ReturnLeader(colour="purple"), "return the purple leader"),
        ({"type": "palm", "hex": [2, 2]}, Palm(hex=(2, 2)), "palm tree on C4"),
    ],
)
def test_move_wire_shapes(wire, move, text):
    assert STANDARD.parse_move(wire) == move
    assert STANDARD.dump_move(move) == wire
    assert str(move) == text


def test_malformed_moves_are_rejected():
    for wire in ({"type": "camel", "colour": "grey", "hex": [0, 0]}, {"type": "camel", "colour": "pink"}, {"type": "pass"}):
        with pytest.raises(MalformedMove):
            STANDARD.parse_move(wire)


def test_options_reject_unknown_keys_and_have_defaults():
    assert STANDARD.parse_options({}) == Options()
    with pytest.raises(Exception):
        STANDARD.parse_options({"river": True})


def test_view_has_the_renderer_keys():
    state, _ = play_first_moves_until(new_game(3, seed=1), "camels")
    state, _ = act(state, STANDARD.legal_moves(state, state["current"])[0])
    view = STANDARD.view(state, 0)
    assert {"board", "phase", "current", "camels_left", "colours", "piles", "oases", "wells", "camels",
            "areas", "players", "last_placed"} <= set(view)
    assert set(view["board"]) >= {"spaces", "mountains", "small_area"}
    assert view["colours"] == list(COLOURS) and view["phase"] == "camels"
    assert set(view["wells"][0]) == {"hex", "value"}
    assert set(view["camels"][0]) == {"hex", "seat", "colour", "leader"}
    assert set(view["players"][0]) >= {"seat", "leaders_in_hand", "returned_leader", "wells_taken", "well_points",
                                       "oasis_points", "area_points", "caravans"}
    assert len(view["last_placed"]) == 1 and len(view["camels"]) == 16
    assert "my_wells" in view and "my_wells" not in STANDARD.view(state, None)
    assert str(state["rng"]) not in str(view)


def random_positions(n_players: int, seed: int, **options) -> list[dict]:
    """Every position of one game of random moves (``random.Random(seed)`` chooses)."""
    chooser = random.Random(seed)
    state = new_game(n_players, seed=seed, **options)
    states = [state]
    while STANDARD.to_act(state):
        state, _ = act(state, chooser.choice(STANDARD.legal_moves(state, state["current"])))
        states.append(state)
    return states


def with_marked_fields(state: dict) -> dict:
    """``state`` with a new key ``zz_new_secret`` at the top level and in every record it holds:
    the options, each camel, each well token (face up, taken, still in the pool) and each area."""
    state = json.loads(json.dumps(state))
    records = [state, state["options"], *state["camels"].values(), *state["wells"].values(), *state["areas"],
               *state.get("well_pool", []), *(well for wells in state["taken_wells"] for well in wells)]
    for number, record in enumerate(records):
        record["zz_new_secret"] = f"zz-secret-{number}"
    return state


@pytest.mark.parametrize(("n_players", "options"), [(2, {}), (4, {"palm_placement": "choose"})])
def test_a_field_added_to_the_state_is_in_no_view(n_players, options):
    """Views are allow-lists: a new state field stays private until a view names it."""
    states = random_positions(n_players, seed=5, **options)
    samples = [states[0], states[len(states) // 2], states[-2], states[-1]]
    assert samples[-1]["areas"] and samples[-1]["taken_wells"][0] and samples[-1]["phase"] == "over"
    for state in samples:
        marked = with_marked_fields(state)
        for viewer in [None, *range(n_players)]:
            view = STANDARD.view(marked, viewer)
            assert "zz" not in json.dumps(view), f"a marked field shows in the view of {viewer}"
            assert view == STANDARD.view(state, viewer)


def test_every_table_option_is_kept_in_the_state_and_shown():
    state = new_game(3, palm_placement="choose", end_trigger="immediate")
    assert set(state["options"]) == set(Options.model_fields)
    assert STANDARD.view(state, None)["options"] == Options(palm_placement="choose", end_trigger="immediate").model_dump()
