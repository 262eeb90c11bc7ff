"""Scoring of Nomadi (Spec §2.7, R-35, R-36): coins plus the values of the cards held.

Every function works on plain values or on a game state (``state.py``), so a score can be
checked without playing up to it.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.rulesets.base import Result, rank_by_score
from app.rulesets.nomadi.state import NomadiState

def seat_breakdown(balance: int, card_values: Iterable[int]) -> dict[str, int]:
    """Spec R-36 for one seat: the coin balance (debt included) and the sum of the card values."""
    return {"coins": balance, "cards": sum(card_values)}


def breakdown(state: NomadiState) -> list[dict[str, int]]:
    """The final score of every seat by category, from a game state."""
    return [
        seat_breakdown(state["coins"][seat], (card["value"] for card in state["hands"][seat]))
        for seat in range(state["players"])
    ]


def final_result(state: NomadiState, reason: str) -> Result:
    """Spec R-36: highest score wins; equal scores share the place [D: no tie-break]."""
    rows = breakdown(state)
    scores = [row["coins"] + row["cards"] for row in rows]
    return Result(scores=scores, ranks=rank_by_score(scores), breakdown=rows, reason=reason)
