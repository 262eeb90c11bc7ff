"""What one seat knows of a Through the Desert game, as a full state: the ``determinize`` hook.

Bots never read the real state (``Ruleset.determinize``); a searching bot plays on states built
here from one seat's view.  ``determinize`` rebuilds the state (``state.py``) from what the seat
sees (the view carries the table options, which are public).  Everything a view shows is copied;
the rest is filled in:

* the values of other seats' taken wells while W-2 hides them: drawn without replacement from
  the tokens the seat cannot see anywhere (45 = 15 of each value, minus the wells face up on the
  board, minus the seat's own and every visible taken token), which is exactly the distribution
  the S-6 shuffle leaves them;
* the palm phase's ``well_pool`` (option ``palm_placement="choose"``) from the same unseen tokens;
* token ids (only a seat's own ids ever show), the PRNG state, and the turn counter of T-3,
  which is inferred from the camels placed (only whether it is below 1 or 2 matters).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from app.rulesets.base import Rng, Seat
from app.rulesets.through_the_desert.board import PlayArea, hex_key
from app.rulesets.through_the_desert.moves import COLOURS
from app.rulesets.through_the_desert.options import Options, table_options
from app.rulesets.through_the_desert.state import (
    WELL_IDS,
    WELL_VALUES,
    WELLS_PER_VALUE,
    HexKey,
    OasisCredit,
    PlacedCamel,
    ThroughTheDesertState,
    WellToken,
)
from app.rulesets.through_the_desert.view import parse_well_token


def determinize(area: PlayArea, view: dict[str, Any], seat: Seat, rng: Rng) -> ThroughTheDesertState:
    """A state whose ``view(state, seat)`` equals ``view``; the parts
    the seat cannot see come from ``rng`` (see the module docstring)."""
    players = view["players"]
    n_players = len(players)
    phase = view["phase"]
    keys = _keys_of(area)

    own = [parse_well_token(token) for token in view.get("my_wells", [])]
    unseen = Counter({value: WELLS_PER_VALUE for value in WELL_VALUES})
    unseen.subtract(well["value"] for well in view["wells"])
    unseen.subtract(well["value"] for well in own)
    for other, player in enumerate(players):
        if other != seat and player["well_values"] is not None:
            unseen.subtract(player["well_values"])
    hidden = [value for value in WELL_VALUES for _ in range(max(unseen[value], 0))]
    rng.shuffle(hidden)
    own_ids = {well["id"] for well in own}
    free_ids = [token_id for token_id in WELL_IDS if token_id not in own_ids]
    rng.shuffle(free_ids)

    def token(value: int) -> WellToken:
        return {"id": free_ids.pop(), "value": value}

    wells = {keys(well["hex"]): token(well["value"]) for well in view["wells"]}
    taken_wells: list[list[WellToken]] = []
    for other, player in enumerate(players):
        if other == seat:
            taken_wells.append(own)
        elif player["well_values"] is not None:
            taken_wells.append([token(value) for value in player["well_values"]])
        else:
            taken_wells.append([token(hidden.pop()) for _ in range(player["wells_taken"])])

    oasis_credits: list[list[OasisCredit]] = [[] for _ in range(n_players)]
    for credit in view["oasis_credits"]:
        oasis_credits[credit["seat"]].append([credit["colour"], keys(credit["hex"])])
    camels: dict[HexKey, PlacedCamel] = {
        keys(camel["hex"]): {"seat": camel["seat"], "colour": camel["colour"], "leader": camel["leader"]}
        for camel in view["camels"]
    }
    turn, allowance, placed = _turn_counters(view, camels, n_players)
    piles = dict(view["piles"])
    if phase == "over":
        end_reason = view["end_reason"]
    elif view["final_turn"]:
        empty = next(colour for colour in COLOURS if piles[colour] == 0)
        end_reason = f"the last {empty} camel was taken (G-1)"
    else:
        end_reason = None

    state: ThroughTheDesertState = {
        "board": view["board"]["name"],
        "players": n_players,
        "options": table_options(Options.model_validate(view["options"])),
        "phase": phase,
        "start_player": view["start_player"],
        "current": view["current"],
        "turn": turn,
        "allowance": allowance,
        "placed": placed,
        "last_placed": [keys(h) for h in view["last_placed"]],
        "piles": piles,
        "oases": [keys(h) for h in view["oases"]],
        "wells": wells,
        "camels": camels,
        "leaders_in_hand": [list(player["leaders_in_hand"]) for player in players],
        "returned": [player["returned_leader"] for player in players],
        "taken_wells": taken_wells,
        "oasis_credits": oasis_credits,
        "areas": [
            {"seat": a["seat"], "colour": a["colour"], "hexes": [keys(h) for h in a["hexes"]], "points": a["points"]}
            for a in view["areas"]
        ],
        "final_turn": view["final_turn"],
        "end_reason": end_reason,
        "rng": rng.next64(),
    }
    if phase == "palms":  # S-6: the tokens for the palm spaces left over, still face down
        state["well_pool"] = [token(value) for value in hidden]
    return state


def _keys_of(area: PlayArea) -> Callable[[list[int]], HexKey]:
    """The state key of a view's hex, checked to be a space of ``area`` (``ValueError`` otherwise)."""

    def key(hex_: list[int]) -> HexKey:
        k = hex_key(hex_)
        if k not in area.space_set:
            raise ValueError(f"{k} is not a space of the board in use")
        return k

    return key


def _turn_counters(view: dict[str, Any], camels: dict[HexKey, PlacedCamel], n_players: int) -> tuple[int, int, int]:
    """``(turn, allowance, placed)`` consistent with the view's ``camels_left`` and T-3.

    ``turn`` counts main-phase turns begun; only whether it is below T-3's number of
    single-camel turns matters, and with every turn placing at least one camel that follows from
    the camels on the board (a T-5 pass in the very first round is the one case it can miss).
    """
    if view["phase"] != "camels":
        return (0, 0, 0) if view["phase"] in ("palms", "return_leaders", "leaders") else (2, 0, 0)
    single_camel_turns = 1 if n_players == 2 else 2
    placed_so_far = sum(not camel["leader"] for camel in camels.values())
    turn = min(placed_so_far, 2) + 1
    allowance = 1 if turn - 1 < single_camel_turns else 2
    left = view["camels_left"]
    allowance = max(allowance, left)
    return turn, allowance, allowance - left
