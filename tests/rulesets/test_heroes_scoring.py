"""X-objectives, the end of the game and final scoring (spec 1.11, our ``round_limit``)."""

from __future__ import annotations

from app.rulesets.heroes.moves import Build, Recruit
from tests.rulesets.heroes_fixtures import A, B, C, RULES, play, position, put, resources, texts


def idle(state):
    """Play quiet moves (skip, pass, a Tax, a placement) until the current round is over."""
    start = state["round"]
    while state["phase"] != "over" and state["round"] == start:
        seat = min(RULES.to_act(state))
        legal = RULES.legal_moves(state, seat)
        move = next((m for m in legal if m.type in ("skip", "pass")), None) \
            or next((m for m in legal if m.type == "tax"), None) \
            or next((m for m in legal if m.type == "recruit"), legal[0])
        state, _ = RULES.apply(state, seat, move)
    return state


def test_expand_all_serfs_and_warriors_in_play_then_finish_the_round_and_one_more():
    state = position()
    resources(state, A, food=2)
    put(state, "N_capital", A, serf=11, warrior=5)  # 12 Serfs, 5 Warriors in all
    state, events = play(state, (A, Recruit(unit="serf")))
    assert state["end"] == {"objective": "eXpand", "by": A, "round": 1, "last_round": 2}
    assert "{seat0} meets eXpand: this round and one more are played" in texts(events)
    state = idle(state)
    assert state["round"] == 2 and state["phase"] != "over"
    state = idle(state)
    assert state["phase"] == "over" and state["round"] == 2 and state["end"]["finished"] == "eXpand"
    assert "met eXpand" in RULES.result(state).reason


def test_exploit_all_three_towers_in_play():
    state = position()
    resources(state, A, ore=10)
    state["players"][A]["cc_level"] = 3
    state["regions"]["N_plains"]["tower"] = A
    state["regions"]["E_forest"]["tower"] = A
    state["players"][A]["supply"]["tower"] = 1
    put(state, "N_swamp", A, serf=1)
    state, events = play(state, (A, Build(what="tower", region="N_swamp")))
    assert state["end"]["objective"] == "eXploit" and state["end"]["last_round"] == 2


def test_the_trigger_cannot_be_undone():
    state = position()
    resources(state, A, food=2)
    put(state, "N_capital", A, serf=11, warrior=5)
    state, _ = play(state, (A, Recruit(unit="serf")))
    state["regions"]["N_capital"]["units"] = {}
    state["players"][A]["supply"].update(serf=12, warrior=5)
    state = idle(state)
    assert state["end"]["objective"] == "eXpand" and state["round"] == 2


def test_round_limit_ends_the_game_after_that_round_even_with_a_trigger_pending():
    state = position(round_limit=4)
    state["round"] = 4
    resources(state, A, food=2)
    put(state, "N_capital", A, serf=11, warrior=5)
    state, _ = play(state, (A, Recruit(unit="serf")))
    assert state["end"]["last_round"] == 5
    state = idle(state)
    assert state["phase"] == "over" and state["end"]["finished"] == "round_limit"
    assert RULES.result(state).reason == "the round limit ({limit}) was reached"
    assert RULES.result(state).reason_words(("Ana", "Bo")) == "the round limit (4) was reached"


def test_a_game_without_objectives_runs_to_the_round_limit():
    state = position(round_limit=4)
    for _ in range(4):
        state = idle(state)
    assert state["phase"] == "over" and state["round"] == 4


def test_final_scoring_by_category():
    """Running score + Hall 2 + Towers 2 each + Warriors 1 each + Hero 2 + C.C. level VP (level 2: 3)
    + 1 per controlled region (capital included); captured Nomads 0 (NC-6)."""
    state = position(3)
    player = state["players"][A]
    player.update(score=7, hall=True, cc_level=2, nomads=2)
    put(state, "N_capital", A, serf=2, warrior=1)
    put(state, "N_plains", A, warrior=2, hero=1)
    state["regions"]["N_plains"]["tower"] = A
    state["regions"]["N_mountain"]["tower"] = A      # a Tower alone controls its region
    put(state, "E_forest", A, serf=1)
    state["phase"] = "over"
    result = RULES.result(state)
    assert result.breakdown[A] == {"VP during play": 7, "hall": 2, "towers": 4, "warriors": 3, "hero": 2, "capital": 3,
                                   "regions": 4}  # N_capital, N_plains, N_mountain, E_forest
    assert result.scores[A] == 25
    # seats 1 and 2: only their standing capitals (1 VP each) and level 1 (0): a shared 2nd place
    assert result.scores[B] == result.scores[C] == 1 and result.ranks == [1, 2, 2]


def test_an_eliminated_player_scores_zero_and_ties_share_the_place():
    state = position(3)
    state["players"][B].update(eliminated=True, score=12)
    state["phase"] = "over"
    result = RULES.result(state)
    assert result.scores == [1, 0, 1] and result.ranks == [1, 3, 1]


def test_an_objective_met_by_the_last_action_of_a_round_counts_in_that_round():
    """The last seat's second-lap action makes its last Warrior (eXpand): Collection and Round End
    follow in the same move, but the end is noted in round 1, so round 2 is the last."""
    state = position(nomads="none")
    state["turn"] = {"seat": B, "lap": 2, "order": [A, B]}
    state["players"][B]["supply"].update(serf=0, warrior=1)
    resources(state, B, food=2)
    state, _ = play(state, (B, Recruit(unit="warrior")))
    assert state["round"] == 2
    assert state["end"] == {"objective": "eXpand", "by": B, "round": 1, "last_round": 2}
