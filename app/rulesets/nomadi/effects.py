"""What a move sets off, in the spec's order (Spec §2.5, R-27 .. R-32).

:func:`resolve` runs after a stone has been moved: departure, start emptied, the chasm, the desert
card, the goal, the end.  It changes the state (coins, cards, flags) and appends the log lines; a
card landed on by another player's stone becomes ``state["offer"]`` for the rules to pause on.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Event, Seat, amount
from app.rulesets.nomadi.bank import pay_out, pay_in
from app.rulesets.nomadi.board import Board, Cell, as_cell, cell_key, place_arg
from app.rulesets.nomadi.state import NomadiState

START_EMPTIED_BONUS = 5
"""R-28: to the owner of the last stone to leave the start."""
FIRST_CROSSING_BONUS = 5
"""R-29a: to the mover who first takes a stone over the chasm."""
LAST_CROSSING_FEE = 5
"""R-29b: paid by the mover who takes the last near-side stone over."""
CARD_COINS = 1
WATER_SOURCE_COINS = 2
"""R-30: to the mover for landing on a card (on a water source: 2)."""
GOAL_REWARDS = (8, 6, 4)
"""R-31: for the 1st, 2nd and 3rd stone in the goal."""
ENDING_ARRIVAL = 3
"""R-32: the third stone in the goal ends the game at once."""


def goal_shares(reward: int, mover: Seat, owner: Seat) -> list[tuple[Seat, int]]:
    """Spec R-31: the mover's own stone earns it all; otherwise mover and owner split it evenly,
    the mover taking the rounded-up half of an odd reward [D]."""
    if mover == owner:
        return [(mover, reward)]
    return [(mover, (reward + 1) // 2), (owner, reward // 2)]


def resolve(state: NomadiState, board: Board, mover: Seat, stone_id: int, origin: Cell, landing: Cell, events: list[Event]) -> None:
    """Spec R-27 .. R-32 after ``stone_id`` went from ``origin`` to ``landing`` (already moved).

    Sets ``state["offer"]`` when a card must be offered (R-30b) and ``state["arrivals"]`` to 3
    when the game ends (R-32); the caller acts on both.
    """
    stones = state["stones"]
    stone = stones[stone_id]
    owner = stone["owner"]
    start = board.start_set

    # R-27 departure (R-33: ending a move off the start)
    if landing not in start:
        stone["departed"] = True

    # R-28 start emptied, once per game; the bonus goes to the stone's owner, not the mover
    if not state["start_emptied"] and not any(s["cell"] and as_cell(s["cell"]) in start for s in stones):
        state["start_emptied"] = True
        pay_out(state, owner, START_EMPTIED_BONUS, "the last stone left the start (R-28)", events)

    # R-29 the chasm: judged by the end points only
    if not board.far_side(origin) and board.far_side(landing):
        if not state["crossed"]:
            state["crossed"] = True
            pay_out(state, mover, FIRST_CROSSING_BONUS, "the first stone over the chasm (R-29a)", events)
        if not any(s["cell"] and not board.far_side(as_cell(s["cell"])) for s in stones):
            state["all_crossed"] = True
            pay_in(state, mover, LAST_CROSSING_FEE, "the last stone over the chasm (R-29b)", events)

    # R-30 a desert card: the mover is paid whatever becomes of the card
    card = state["cards"].pop(cell_key(landing), None)
    if card is not None:
        water = landing in board.water_sources
        where = "landing on a water source at {cell} (R-30)" if water else "landing on a desert card at {cell} (R-30)"
        paid = WATER_SOURCE_COINS if water else CARD_COINS
        pay_out(state, mover, paid, where, events, {"cell": place_arg(landing)})
        if owner == mover:
            state["hands"][mover].append(card)
            events.append(Event.trusted(f"{{seat{mover}}} takes the card from {{cell}} face down",
                                args={"cell": place_arg(landing)}, rule="R-30a"))
            worth = f"{{seat{mover}}}: the card you took from {{cell}} is worth {{value}}"
            events.append(Event.trusted(worth, args={"cell": place_arg(landing), "value": signed_arg(card["value"])},
                                seats=(mover,)))
        else:
            state["offer"] = {
                "stone": stone_id, "cell": list(landing), "card": card, "owner": owner, "claim": None, "price": 0,
            }
            events.append(Event.trusted(f"{{seat{mover}}} inspects the card on {{cell}} for {{seat{owner}}}",
                                args={"cell": place_arg(landing)}, rule="R-30b"))
            worth = f"{{seat{mover}}}: the card you inspected on {{cell}} is worth {{value}}"
            events.append(Event.trusted(worth, args={"cell": place_arg(landing), "value": signed_arg(card["value"])},
                                seats=(mover,)))

    # R-31 the goal: the stone is locked; rewards by order of arrival
    if landing in board.goal_cells(state["oasis"]):
        stone["locked"] = True
        state["arrivals"] += 1
        arrival = state["arrivals"]
        reward = GOAL_REWARDS[arrival - 1]
        ordinal = {1: "first", 2: "second", 3: "third"}[arrival]  # one template each: a language words them its own way
        events.append(Event.trusted(f"A stone of {{seat{owner}}} reaches the goal, the {ordinal} to arrive (R-31)"))
        for seat, share in goal_shares(reward, mover, owner):
            pay_out(state, seat, share, f"the {ordinal} stone in the goal (R-31)", events)


def signed_arg(value: int) -> dict[str, Any]:
    """A card value as an event argument, written as printed on the card (``+3``, ``-2``): an
    amount whose words are its signed number, the same in every language."""
    return {**amount(value), "text": f"{value:+d}"}
