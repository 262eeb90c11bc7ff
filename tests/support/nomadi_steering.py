"""Steering a Nomadi game towards an offer (Spec R-30): tests that need a desert card offered
play these moves instead of waiting for random play to bring one about."""

from __future__ import annotations

import random


def distance(a, b) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def steer(game: dict, rng: random.Random) -> dict:
    """A legal move that brings another player's stone onto a desert card as soon as it can
    (so that a card gets offered), and otherwise closer to one."""
    view, legal = game["view"], game["legal"]
    moves = [move for move in legal if move["type"] == "move"]
    if not moves:
        return rng.choice(legal)
    mover_seat = view["current"]
    cards = [tuple(card["cell"]) for card in view["cards"]]
    owner_at = {tuple(stone["cell"]): stone["owner"] for stone in view["stones"]}

    def score(move):
        origin, to = tuple(move["stone"]), tuple(move["to"])
        foreign = owner_at[origin] != mover_seat
        if to in cards:
            return -1000 if foreign else 1000  # offer: yes; taking a card for yourself: no
        stones = [(to if at == origin else at, owner) for at, owner in owner_at.items()]
        return min((distance(at, card) for at, owner in stones if owner != mover_seat for card in cards), default=0)

    best = min(score(move) for move in moves)
    return rng.choice([move for move in moves if score(move) == best])
