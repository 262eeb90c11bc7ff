"""Grids and positions for the Nimalia tests (Spec §4 fixtures and small hand-made reserves).

Grids are written as in Spec §4: one string per row, spaces separated by blanks, ``.`` empty,
otter rivers in board orientation.
"""

from __future__ import annotations

from app.rulesets.base import copy_state
from app.rulesets.nimalia.cards import card_token
from app.rulesets.nimalia.moves import Place
from app.rulesets.nimalia.options import Options
from app.rulesets.nimalia.reserve import Grid, grid_from_rows
from app.rulesets.nimalia.rules import Nimalia

RULES = Nimalia()

EXAMPLE_1 = [
    r"Be  Be  Pe  Li  Gi  Cr",
    r"Pe  On/ Be  Gi  Li  Fl",
    r"Go  Pa  Cr  Cr  Pe  Be",
    r"Pa  Go  Fl  Li  Li  Be",
    r"Fl  Cr  Gi  Go  Oj\ Go",
    r"Li  Gi  Gi  Pa  Pe  Pe",
]
"""Spec §4 Example 1: a full 6x6 reserve."""

EXAMPLE_2 = [
    r".   .   Pa  Fl  Cr  .",
    r".   Pa  Fl  Fl  Gi  Cr",
    r"Pa  Cr  Fl  .   Fl  Gi",
    r"Go  Cr  Fl  Fl  Fl  Pa",
    r"Go  Go  Cr  Gi  Pa  .",
    r".   .   .   .   .   .",
]
"""Spec §4 Example 2: an irregular reserve with an interior hole at (2,3)."""


def grid(*rows: str) -> Grid:
    """A grid from Spec §4 notation."""
    return grid_from_rows(rows)


def row_of(*codes: str) -> Grid:
    """A one-row grid of ``codes`` (for counting objectives)."""
    return grid_from_rows([" ".join(codes)])


def new_state(n_players: int = 2, seed: int = 7, **options) -> dict:
    return RULES.setup(n_players, Options(**options), seed)


def with_placements(state: dict, seat: int, placements: list[tuple[int, int, tuple[int, int]]]) -> dict:
    """``state`` with ``seat``'s revealed reserve replaced by ``(card, rotation, at)`` placements
    (cards are taken out of the deck so that no card is in two places)."""
    state = copy_state(state)
    used = {card for card, _, _ in placements}
    held = {card for hand in state["hands"] for card in hand}
    assert not used & held, "fixture placements must not use cards in hand"
    state["deck"] = [card for card in state["deck"] if card not in used]
    state["placements"][seat] = [{"card": c, "rotation": r, "at": list(at)} for c, r, at in placements]
    return state


def unused_cards(state: dict, count: int) -> list[int]:
    """Card numbers in no hand, no pick and no reserve of ``state``."""
    taken = {card for hand in state["hands"] for card in hand}
    taken |= {p["card"] for reserve in state["placements"] for p in reserve}
    taken |= {p["card"] for p in state["picks"] if p}
    return [number for number in range(1, 61) if number not in taken][:count]


def place(state: dict, seat: int, card: int, rotation: int = 0, at: tuple[int, int] = (0, 0)):
    """Apply a ``place`` move for ``seat`` through the turn check."""
    move = Place(card=card_token(card), rotation=rotation, at=at)
    return RULES.check_and_apply(state, seat, move)


def first_legal(state: dict, seat: int):
    return RULES.legal_moves(state, seat)[0]


def play_step(state: dict, order: list[int] | None = None) -> tuple[dict, list]:
    """Every seat plays its first legal move, in ``order`` (default seat order)."""
    events = []
    for seat in order or range(state["players"]):
        state, new = RULES.check_and_apply(state, seat, first_legal(state, seat))
        events.extend(new)
    return state, events
