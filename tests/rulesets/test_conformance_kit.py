"""The conformance kit itself: it passes a correct ruleset and catches each kind of broken one."""

import pytest

from app.rulesets.base import Event, Rng, card, rank_by_score
from app.rulesets.testing import check_ruleset
from tests.support.toy_rulesets import ToyRace, ToySealedBids


def test_correct_toy_rulesets_pass():
    assert len(check_ruleset(ToyRace(), games=3)) == 3
    assert len(check_ruleset(ToySealedBids(), games=3)) == 6  # 2 and 3 players


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


class LeakyLogArgument(ToyRace):
    """A public sentence without the secret whose card argument carries it (issue 20, item 3): the
    kit reads every argument, not only the words."""

    def apply(self, state, seat, move):
        new, events = super().apply(state, seat, move)
        return new, [*events, Event(text="{seat0} drew {card}", args={"card": card(state["words"][seat])})]


@pytest.mark.parametrize("broken", [LeakyView, MutatingApply, ListsIllegalMove, NonDeterministicSetup, LeakyLog,
                                    LeakyLogArgument])
def test_kit_catches_broken_ruleset(broken):
    with pytest.raises(AssertionError):
        check_ruleset(broken(), games=3)


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
