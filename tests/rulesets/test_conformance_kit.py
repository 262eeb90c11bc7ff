"""The conformance kit itself: it passes a correct ruleset and catches each kind of broken one;
and the frames' move writer (``move_json_default``) for a move model that is not plain."""

from __future__ import annotations

import enum
from typing import Annotated, Literal

import orjson
import pytest
from pydantic import Field

from app.rulesets.base import Event, IllegalMove, MoveModel, Result, Rival, Rng, Variant, card, rank_by_score
from app.rulesets.wire import dump_moves, move_json_default, plain_moves
from app.rulesets.testing import Case, cases, check_case, check_result, observed_facts, random_games
from tests.support.toy_rulesets import Add, ToyRace, ToySealedBids


class DeterminizingRace(ToyRace):
    """Toy race with a search hook: the other seat's word is sampled."""

    variants = (Variant(options={}, players=(2,)),)

    def determinize(self, view, seat, rng):
        words = [f"secret-{other}-{rng.randrange(10**9):09d}" for other in range(2)]
        words[seat] = view["my_word"]
        winner = view["turn"] if view["total"] >= 10 else None
        return {"total": view["total"], "turn": view["turn"], "words": words, "winner": winner, "rng": rng.next64()}


def test_correct_toy_rulesets_pass():
    assert len(random_games(ToyRace(), games=3, check=True)) == 3
    assert len(random_games(ToySealedBids(), games=3, check=True)) == 6  # 2 and 3 players
    assert len(random_games(DeterminizingRace(), games=3, check=True)) == 3


def test_cases_are_every_player_count_then_the_variants():
    assert [case.id for case in cases(ToySealedBids())] == ["2p", "3p"]
    assert [case.id for case in cases(DeterminizingRace())] == ["2p", "2p"]
    variant = Variant(options={"turn_limit": 20, "trading": True})
    assert Case(4, dict(variant.options)).id == "4p-trading=True+turn_limit=20"


def test_a_case_is_cut_at_its_cap_and_still_replayed():
    games = check_case(ToySealedBids(), Case(2), seeds=(1, 2, 3), cap=2)
    assert [len(game.moves) for game in games] == [2, 2, 2] and not any(game.ended for game in games)


def test_observed_facts_of_the_toys():
    assert observed_facts(ToySealedBids(), cases(ToySealedBids())).simultaneous
    race = observed_facts(ToyRace(), cases(ToyRace()))
    assert (race.simultaneous, race.hidden_information) == (False, True)


def test_ranks_follow_scores():
    check_result(Result(scores=[5, 9, 5], ranks=[2, 1, 2]), 3, "a shared place")
    check_result(Result(scores=[5, 9, 5], ranks=[3, 1, 2]), 3, "a tie-break separates equal scores")
    check_result(Result(scores=[9], ranks=[2]), 1, "solo, behind a rival that is no seat")
    check_result(Result(scores=[4, 3], ranks=[1, 2], breakdown=[{"a": 1, "b": 3}, {"a": 3}]), 2, "breakdowns")
    check_result(Result(scores=[9], ranks=[2], rivals=[Rival(name="The Enemy", score=11, breakdown={"a": 4, "b": 7})]), 1,
                 "solo, a rival's breakdown")


def test_a_rival_breakdown_that_does_not_add_up_is_caught():
    with pytest.raises(AssertionError, match="does not add up"):
        check_result(Result(scores=[9], ranks=[2], rivals=[Rival(name="The Enemy", score=11, breakdown={"a": 4})]), 1, "wrong")


def test_a_result_without_rivals_dumps_as_before_the_field():
    """Only a game that scores a side that is no seat sends ``rivals``: every other result's wire
    form (and the rules digests of its games) is unchanged."""
    assert "rivals" not in Result(scores=[4, 3], ranks=[1, 2]).model_dump(mode="json")
    assert Result(scores=[9], ranks=[2], rivals=[Rival(name="The Enemy", score=11)]).model_dump(mode="json")["rivals"] == [
        {"name": "The Enemy", "score": 11, "breakdown": {}}]


@pytest.mark.parametrize(("scores", "ranks", "breakdown"), [
    ([5, 9], [1, 2], []),  # a lower score placed ahead
    ([5, 9, 5], [2, 1, 3], [{"a": 5}, {"a": 9}, {"a": 4}]),  # a breakdown that does not add up
    ([9, 5, 1], [1, 2, 2], []),  # a shared place without a shared score
    ([9, 5, 1], [1, 3, 4], []),  # no competition ranking
    ([9, 5], [1, 2, 3], []),  # a place for a seat that is not there
    ([9], [3], []),  # a solo seat placed third
])
def test_ranks_against_scores_are_caught(scores, ranks, breakdown):
    with pytest.raises(AssertionError):
        check_result(Result(scores=scores, ranks=ranks, breakdown=breakdown), len(scores), "wrong")


class LeakyView(ToyRace):
    def view(self, state, seat):
        return {**super().view(state, seat), "words": state["words"]}


class MutatingApply(ToyRace):
    def apply(self, state, seat, move):
        new, events = super().apply(state, seat, move)
        state["total"] = new["total"]
        return new, events


class ListsIllegalMove(ToyRace):
    def legal_moves(self, state, seat):
        return [] if seat not in self.to_act(state) else [self.parse_move({"type": "add", "amount": a}) for a in (1, 2, 3)]

    def apply(self, state, seat, move):
        if move.amount == 3 and state["total"] >= 4:
            from app.rulesets.base import IllegalMove
            raise IllegalMove("no threes after four")
        return super().apply(state, seat, move)


class NonDeterministicSetup(ToyRace):
    calls = 0

    def setup(self, n_players, options, seed):
        NonDeterministicSetup.calls += 1
        return super().setup(n_players, options, seed + NonDeterministicSetup.calls)


class LeakyLog(ToyRace):
    def apply(self, state, seat, move):
        new, events = super().apply(state, seat, move)
        return new, [*events, type(events[0])(text=f"psst {state['words'][seat]}")]


class UndeclaredSimultaneous(ToySealedBids):
    simultaneous = False


class UndeclaredSecrets(ToyRace):
    hidden_information = False


class IllegalTimeout(ToyRace):
    def timeout_move(self, state, seat):
        return Add(type="add", amount=3)  # illegal from 7, and for the seat not to act


class RanksAgainstScores(ToyRace):
    def result(self, state):
        result = super().result(state)
        return result and Result(scores=result.scores, ranks=result.ranks[::-1])


class DeterminizeShowsOtherTotal(DeterminizingRace):
    def determinize(self, view, seat, rng):
        return {**super().determinize(view, seat, rng), "total": view["total"] + 1}


class SpectatorSeesUndeclaredWords(DeterminizingRace):
    """Declares no secret, so only the spectator's view of a sampled world shows the leak."""

    def secrets(self, state, seat):
        return set()

    def view(self, state, seat):
        view = super().view(state, seat)
        return view if seat is not None else {**view, "words": state["words"]}


class AcceptsUnlistedMoves(ToyRace):
    def legal_moves(self, state, seat):
        moves = super().legal_moves(state, seat)
        return moves[:1] if state["total"] >= 4 else moves


class RefusalChangesState(ToyRace):
    def apply(self, state, seat, move):
        if seat not in self.to_act(state):
            state["total"] += 0.5
        return super().apply(state, seat, move)


class RefusalNamesASecret(ToyRace):
    def apply(self, state, seat, move):
        if seat not in self.to_act(state):
            raise IllegalMove(f"wait for {state['words'][1 - seat]}", code="not_your_turn")
        return super().apply(state, seat, move)


class WrongRefusalCode(ToyRace):
    def apply(self, state, seat, move):
        if seat not in self.to_act(state):
            raise IllegalMove("no", code="teapot")
        return super().apply(state, seat, move)


class ParsesGarbage(ToyRace):
    def parse_move(self, raw):
        try:
            return super().parse_move(raw)
        except Exception:
            return Add(type="add", amount=1)


class FirstBidEndsTheLastRound(ToySealedBids):
    """One seat's bid in round 3 takes the other seats' turn away."""

    def apply(self, state, seat, move):
        new, events = super().apply(state, seat, move)
        if new["round"] == 3 and any(bid is not None for bid in new["pending"]):
            new["round"], new["pending"] = 4, [None] * len(new["pending"])
        return new, events


class StrayTuple(ToyRace):
    def apply(self, state, seat, move):
        new, events = super().apply(state, seat, move)
        new["last"] = (seat, move.amount)  # a tuple comes back from JSON as a list
        return new, events


class LeakyLogArgument(ToyRace):
    """A public sentence without the secret whose card argument carries it: the
    kit reads every argument, not only the words."""

    def apply(self, state, seat, move):
        new, events = super().apply(state, seat, move)
        return new, [*events, Event(text="{seat0} drew {card}", args={"card": card(state["words"][seat])})]


@pytest.mark.parametrize("broken", [
    LeakyView, MutatingApply, ListsIllegalMove, NonDeterministicSetup, LeakyLog, UndeclaredSimultaneous,
    UndeclaredSecrets, IllegalTimeout, RanksAgainstScores, DeterminizeShowsOtherTotal, SpectatorSeesUndeclaredWords,
    AcceptsUnlistedMoves, RefusalChangesState, RefusalNamesASecret, WrongRefusalCode, ParsesGarbage, StrayTuple, FirstBidEndsTheLastRound,
    LeakyLogArgument,
])
def test_kit_catches_broken_ruleset(broken):
    with pytest.raises(AssertionError):
        random_games(broken(), games=3, check=True)


def test_declared_but_never_shown_facts_are_seen():
    class ClaimsSimultaneous(ToyRace):
        simultaneous = True

    assert not observed_facts(ClaimsSimultaneous(), cases(ClaimsSimultaneous())).simultaneous


def test_rank_by_score_shares_places():
    assert rank_by_score([45, 39, 45]) == [1, 3, 1]
    assert rank_by_score([0, 0]) == [1, 1]


def test_rng_is_deterministic_and_uniform_enough():
    first, second = Rng(42), Rng(42)
    draws = [first.randrange(6) for _ in range(6000)]
    assert draws == [second.randrange(6) for _ in range(6000)]
    assert all(850 < draws.count(face) < 1150 for face in range(6))
    deck = list(range(10))
    Rng(1).shuffle(deck)
    assert sorted(deck) == list(range(10)) and deck != list(range(10))


# -- the frames' move writer (was test_move_wire_form.py) --------------------------------------------


class Shade(enum.Enum):
    LIGHT = "light"


class Paint(MoveModel):
    type: Literal["paint"] = "paint"
    shade: Shade


class EnumMoves(ToyRace):
    """A toy whose move carries an Enum: its JSON form is the value, not the Enum object."""

    name = "toy-enum"
    Move = Annotated[Paint, Field(discriminator="type")]


def test_a_move_with_an_enum_field_goes_through_pydantic():
    assert not plain_moves(EnumMoves())
    assert dump_moves(EnumMoves(), [Paint(shade=Shade.LIGHT)]) == [{"type": "paint", "shade": "light"}]
    assert orjson.loads(orjson.dumps([Paint(shade=Shade.LIGHT)], default=move_json_default)) == [
        {"type": "paint", "shade": "light"}]
    with pytest.raises(TypeError):
        orjson.dumps([object()], default=move_json_default)
