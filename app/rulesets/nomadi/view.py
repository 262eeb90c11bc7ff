"""What one seat (or a spectator) sees of a Nomadi game (Spec §2.8, R-37 .. R-39).

The view is an allow-list: :func:`build_view` names every key it shows and reads each from the
typed state (``state.py``), so a field added to the state shows in no view until it is named here
(``tests/rulesets/test_nomadi_information.py``).  It is a JSON dict; the browser renderer is
written against these keys::

    board        {"name", "width", "height", "rows": [str], "chasm": [row per column],
                  "oasis": spot id or None}   rows use the legend ". S W G #" with the goal in play
    phase        "cards" | "placement" | "roll" | "move" | "claim" | "answer" | "over"
    current      the mover, or None once over        start_player, turn, turn_limit
    colours      colour per seat
    stones       [{"id", "owner", "cell", "departed", "locked"}]   stones on the board
    cards        [{"id", "cell", "water"}]   face-down cards on the board (never their values, R-38)
    cards_to_lay number of cards the players still lay (house rule)
    dice         [{"value", "used"}] this turn's dice ([] before the roll)
    moved        [{"stone", "die", "from", "to"}] this turn's moves so far (R-18)
    offer        None, or {"mover", "owner", "cell", "card": "card-07", "claim", "price",
                  "stage": "claim" | "answer"}; the mover's view adds "inspected": "card-07 (+3)"
                  and "value": 3 (R-30b: only the mover has seen it)
    players      [{"seat", "colour", "coins" (None where R-39 hides it), "cards" (how many, public),
                   "stones", "stones_to_place", "stones_in_goal", "card_values" (once over)}]
    chasm        {"crossed", "all_crossed"}   start_emptied   arrivals   goal_rewards
    options      {"short_game", "trading", "hidden_coins", "voluntary_pass", "max_price"}
    my_cards     (a seated viewer) ["card-07:+3", ...] the viewer's own cards, with values
    purse        (a seated viewer, hidden coins) "purse-2:7": the viewer's own balance
    end_reason, result   once over: why, and {"scores", "ranks", "breakdown"}
"""

from __future__ import annotations

from typing import Any

from app.rulesets.base import Seat
from app.rulesets.nomadi.board import Board, parse_key
from app.rulesets.nomadi.effects import GOAL_REWARDS
from app.rulesets.nomadi.options import MAX_ASKING_PRICE
from app.rulesets.nomadi.scoring import final_result
from app.rulesets.nomadi.state import Card, NomadiState


def card_token(card: Card) -> str:
    """A card as its holder (or its inspector) sees it: ``{"id": "card-07", "value": 3} -> "card-07:+3"``."""
    return f"{card['id']}:{card['value']:+d}"


def inspection_token(card: Card) -> str:
    """An offered card as the mover who inspected it sees it: ``"card-07 (+3)"``.

    Deliberately not the holder's form: the mover's peek and the holding are different secrets
    (the card may go to the owner, who then holds ``"card-07:+3"`` alone).
    """
    return f"{card['id']} ({card['value']:+d})"


def purse_token(seat: Seat, balance: int) -> str:
    """A balance as only its owner sees it in the hidden-coins variant: ``"purse-2:7"``."""
    return f"purse-{seat}:{balance}"


def build_view(state: NomadiState, board: Board, seat: Seat | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: spectator)."""
    over = state["phase"] == "over"
    hidden_coins = state["options"]["hidden_coins"] and not over
    goal = board.goal_cells(state["oasis"])
    stones = state["stones"]
    players = []
    for other in range(state["players"]):
        own = [s for s in stones if s["owner"] == other]
        player: dict[str, Any] = {
            "seat": other,
            "colour": state["colours"][other],
            "coins": state["coins"][other] if not hidden_coins or other == seat else None,
            "cards": len(state["hands"][other]),
            "stones": len(own),
            "stones_to_place": sum(s["cell"] is None for s in own),
            "stones_in_goal": sum(s["locked"] for s in own),
        }
        if over:
            player["card_values"] = sorted(card["value"] for card in state["hands"][other])
        players.append(player)
    offer = state["offer"]
    view: dict[str, Any] = {
        "board": {
            "name": board.name,
            "width": board.width,
            "height": board.height,
            "rows": list(board.rows_with_goal(state["oasis"])),
            "chasm": list(board.chasm),
            "oasis": state["oasis"],
            "goal": [list(cell) for cell in sorted(goal)],
        },
        "phase": state["phase"],
        "current": state["current"],
        "start_player": state["start_player"],
        "turn": state["turn"],
        "turn_limit": state["options"]["turn_limit"],
        "colours": list(state["colours"]),
        "stones": [
            {"id": number, "owner": s["owner"], "cell": list(s["cell"]), "departed": s["departed"], "locked": s["locked"]}
            for number, s in enumerate(stones)
            if s["cell"]
        ],
        "cards": [
            {"id": card["id"], "cell": list(parse_key(key)), "water": parse_key(key) in board.water_sources}
            for key, card in sorted(state["cards"].items(), key=lambda item: parse_key(item[0]))
        ],
        "cards_to_lay": len(state["card_pool"]),
        "dice": [{"value": value, "used": used} for value, used in zip(state["dice"], state["used"])],
        "moved": [
            {"stone": stone, "die": die, "from": list(origin), "to": list(to)} for stone, die, origin, to in state["history"]
        ],
        "offer": None,
        "players": players,
        "chasm": {"crossed": state["crossed"], "all_crossed": state["all_crossed"]},
        "start_emptied": state["start_emptied"],
        "arrivals": state["arrivals"],
        "goal_rewards": list(GOAL_REWARDS),
        "options": {
            "short_game": state["options"]["short_game"],
            "trading": state["options"]["trading"],
            "hidden_coins": state["options"]["hidden_coins"],
            "voluntary_pass": state["options"]["voluntary_pass"],
            "max_price": MAX_ASKING_PRICE if state["options"]["trading"] else 0,
        },
    }
    if offer is not None:
        shown = {
            "mover": state["current"],
            "owner": offer["owner"],
            "cell": list(offer["cell"]),
            "card": offer["card"]["id"],
            "claim": offer["claim"],
            "price": offer["price"],
            "stage": "claim" if state["phase"] == "claim" else "answer",
        }
        if seat is not None and seat == state["current"]:
            shown["inspected"] = inspection_token(offer["card"])
            shown["value"] = offer["card"]["value"]
        view["offer"] = shown
    if seat is not None:
        view["my_cards"] = [card_token(card) for card in state["hands"][seat]]
        if hidden_coins:
            view["purse"] = purse_token(seat, state["coins"][seat])
    if over:
        result = final_result(state, state["end_reason"] or "")
        view["end_reason"] = state["end_reason"]
        view["result"] = {"scores": result.scores, "ranks": result.ranks, "breakdown": result.breakdown}
    return view
