"""Two tiny rulesets that exercise the platform without depending on a real game's rules.

* ``toy-race``: 2 seats take turns adding 1-3 to a shared total; whoever reaches 10 wins.
  Each seat holds a secret word only it may see (for the leak checks).  Adding 1 or 2 may be
  taken back, adding 3 may not (as if it had rolled a die).
* ``toy-sealed-bids``: both seats bid 1-5 at the same time, three rounds; a simultaneous step.
  A bid may be taken back while it is sealed.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.rulesets.base import Event, IllegalMove, MoveModel, Result, Rng, Ruleset, copy_state, rank_by_score


class Add(MoveModel):
    type: Literal["add"]
    amount: int = Field(ge=1, le=3)

    def __str__(self) -> str:
        return f"add {self.amount}"


class ToyRace(Ruleset):
    """Race to 10: the seat that brings the total to 10 or more wins."""

    name = "toy-race"
    title = "Toy race"
    min_players = 2
    max_players = 2
    hidden_information = True
    Move = Annotated[Add, Field(discriminator="type")]

    def setup(self, n_players, options, seed):
        rng = Rng(seed)
        words = [f"secret-{seat}-{rng.randrange(10**9):09d}" for seat in range(n_players)]
        return {"total": 0, "turn": 0, "words": words, "winner": None, "rng": rng.state}

    def to_act(self, state):
        return set() if state["winner"] is not None else {state["turn"]}

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [Add(type="add", amount=amount) for amount in (1, 2, 3) if not (state["total"] == 7 and amount == 3)]

    def apply(self, state, seat, move):
        if seat not in self.to_act(state):
            raise IllegalMove("it is not your turn", code="not_your_turn")
        if state["total"] == 7 and move.amount == 3:
            raise IllegalMove("toy rule: from 7 you may not add 3")
        new = copy_state(state)
        new["total"] += move.amount
        events = [Event(text=f"{{seat{seat}}} added {move.amount}"),
                  Event(text=f"your word is {state['words'][seat]}", seats=(seat,))]
        if new["total"] >= 10:
            new["winner"] = seat
        else:
            new["turn"] = 1 - seat
        return new, events

    def view(self, state, seat):
        return {"total": state["total"], "turn": state["turn"],
                "my_word": state["words"][seat] if seat is not None else None}

    def result(self, state):
        if state["winner"] is None:
            return None
        scores = [1 if seat == state["winner"] else 0 for seat in range(2)]
        return Result(scores=scores, ranks=rank_by_score(scores), reason="reached 10")

    def secrets(self, state, seat):
        return {state["words"][seat]}

    def is_reversible(self, before, seat, move, after):
        return move.amount != 3 and after["winner"] is None  # the move that ends the race is final


class Bid(MoveModel):
    type: Literal["bid"]
    amount: int = Field(ge=1, le=5)


class ToySealedBids(Ruleset):
    """Three rounds of simultaneous sealed bids; a round's bids are revealed when both are in."""

    name = "toy-sealed-bids"
    title = "Toy sealed bids"
    min_players = 2
    max_players = 3
    simultaneous = True
    hidden_information = True
    Move = Annotated[Bid, Field(discriminator="type")]

    def setup(self, n_players, options, seed):
        return {"round": 1, "pending": [None] * n_players, "totals": [0] * n_players}

    def to_act(self, state):
        if state["round"] > 3:
            return set()
        return {seat for seat, bid in enumerate(state["pending"]) if bid is None}

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [Bid(type="bid", amount=amount) for amount in range(1, 6)]

    def apply(self, state, seat, move):
        if seat not in self.to_act(state):
            raise IllegalMove("you have already bid this round", code="not_your_turn")
        new = copy_state(state)
        new["pending"][seat] = move.amount
        events = [Event(text=f"{{seat{seat}}} bid")]
        if all(bid is not None for bid in new["pending"]):
            for index, bid in enumerate(new["pending"]):
                new["totals"][index] += bid
            events.append(Event(text="bids revealed: " + ", ".join(map(str, new["pending"]))))
            new["pending"] = [None] * len(new["pending"])
            new["round"] += 1
        return new, events

    def view(self, state, seat):
        return {"round": state["round"], "totals": state["totals"],
                "bid_in": [bid is not None for bid in state["pending"]],
                "my_bid": state["pending"][seat] if seat is not None else None}

    def is_reversible(self, before, seat, move, after):
        return after["pending"][seat] is not None

    def result(self, state):
        if state["round"] <= 3:
            return None
        return Result(scores=state["totals"], ranks=rank_by_score(state["totals"]))


class Score(MoveModel):
    type: Literal["score"]
    points: int = Field(ge=0, le=2)


class ToyPodium(Ruleset):
    """1 to 5 seats, in seat order, each name their own score of 0-2 once; equal scores share a place.

    Not among the toy rulesets every test app loads: the ratings tests add it (``toy-podium``).
    """

    name = "toy-podium"
    title = "Toy podium"
    min_players = 1
    max_players = 5
    Move = Annotated[Score, Field(discriminator="type")]

    def setup(self, n_players, options, seed):
        return {"scores": [None] * n_players}

    def to_act(self, state):
        waiting = [seat for seat, score in enumerate(state["scores"]) if score is None]
        return {waiting[0]} if waiting else set()

    def legal_moves(self, state, seat):
        return [Score(type="score", points=points) for points in range(3)] if seat in self.to_act(state) else []

    def apply(self, state, seat, move):
        if seat not in self.to_act(state):
            raise IllegalMove("it is not your turn", code="not_your_turn")
        new = copy_state(state)
        new["scores"][seat] = move.points
        return new, [Event(text=f"{{seat{seat}}} scored {move.points}")]

    def view(self, state, seat):
        return {"scores": state["scores"]}

    def result(self, state):
        if None in state["scores"]:
            return None
        return Result(scores=state["scores"], ranks=rank_by_score(state["scores"]))
