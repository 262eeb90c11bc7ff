"""What one seat (or a spectator) sees of a Through the Desert game.

The view is a JSON dict; the browser renderer is written against these keys::

    board        {"name", "spaces": [[q, r], ...], "mountains": [[q, r], ...], "small_area": bool,
                  "palm_spaces": [[q, r], ...]}                spaces in use only (walls left out)
    options      the table options (public: the lobby shows them too)
    phase        "palms" | "return_leaders" | "leaders" | "camels" | "over"
                 ("palms" only with the option palm_placement="choose")
    current      seat to act, or None            start_player  seat (S-7)
    camels_left  camels still to place this turn (main phase), else 0
    final_turn   a pile ran out and this is the last turn (G-2)
    colours      the five colours                piles        colour -> camels left (public, S-4)
    oases        [[q, r], ...]                   wells        [{"hex", "value"}] untaken, face up
    camels       [{"hex", "seat", "colour", "leader"}, ...]
    areas        [{"seat", "colour", "hexes", "points"}, ...]
    oasis_credits [{"seat", "colour", "hex"}, ...]   who has scored which oasis with which caravan
    players      [{"seat", "leaders_in_hand", "returned_leader", "wells_taken", "well_points",
                   "well_values", "oasis_points", "area_points", "points", "caravans"}]
                 well_points / well_values / points are None where W-2 hides them from this viewer;
                 points = wells + oases + areas won so far (caravan points come only at the end)
    last_placed  [[q, r], ...] hexes placed in the most recent turn
    my_wells     (a seated viewer only) ["well-07:3", ...] the viewer's own taken well tokens
    end_reason, result   once over: why, and {"scores", "ranks", "breakdown"}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.rulesets.base import Seat
from app.rulesets.through_the_desert.board import PlayArea
from app.rulesets.through_the_desert.moves import COLOURS
from app.rulesets.through_the_desert.scoring import OASIS_POINTS, caravan_sizes, final_result
from app.rulesets.through_the_desert.options import TableOptions
from app.rulesets.through_the_desert.state import HexKey, ThroughTheDesertState, WellToken


def well_token(well: WellToken) -> str:
    """A taken well as the owner's private token: ``{"id": "well-07", "value": 3} -> "well-07:3"``."""
    return f"{well['id']}:{well['value']}"


def parse_well_token(token: str) -> WellToken:
    """A private token back as the well: ``"well-07:3" -> {"id": "well-07", "value": 3}``."""
    token_id, _, value = token.partition(":")
    return {"id": token_id, "value": int(value)}


def build_view(state: ThroughTheDesertState, area: PlayArea, seat: Seat | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: spectator); Spec W-2 decides who sees taken well values.

    An allow-list: every field shown is named here, so a field added to the state stays on the
    server until a line below shows it.
    """
    over = state["phase"] == "over"
    hidden = state["options"]["hide_well_values"] and not over
    n_players = state["players"]
    coords = area.coords

    def hexes(keys: Iterable[HexKey]) -> list[list[int]]:
        return [list(coords[key]) for key in keys]

    sizes = caravan_sizes(state["camels"], n_players)
    area_points = [0] * n_players
    for enclosed in state["areas"]:
        area_points[enclosed["seat"]] += enclosed["points"]
    players = []
    for other in range(n_players):
        visible = not hidden or other == seat
        values = [well["value"] for well in state["taken_wells"][other]]
        oasis_points = OASIS_POINTS * len(state["oasis_credits"][other])
        players.append(
            {
                "seat": other,
                "leaders_in_hand": list(state["leaders_in_hand"][other]),
                "returned_leader": state["returned"][other],
                "wells_taken": len(values),
                "well_points": sum(values) if visible else None,
                "well_values": sorted(values) if visible else None,
                "oasis_points": oasis_points,
                "area_points": area_points[other],
                "points": sum(values) + oasis_points + area_points[other] if visible else None,
                "caravans": {colour: sizes[other].get(colour, 0) for colour in COLOURS},
            }
        )
    camels, piles = state["camels"], state["piles"]
    view: dict[str, Any] = {
        "board": {
            "name": state["board"],
            "spaces": hexes(area.spaces),
            "mountains": [list(h) for h in area.mountains],
            "small_area": area.small_area,
            "palm_spaces": hexes(area.palm_spaces),
        },
        "options": public_options(state["options"]),
        "phase": state["phase"],
        "current": state["current"],
        "start_player": state["start_player"],
        "camels_left": state["allowance"] - state["placed"] if state["phase"] == "camels" else 0,
        "final_turn": state["final_turn"],
        "colours": list(COLOURS),
        "piles": {colour: piles[colour] for colour in COLOURS},
        "oases": hexes(state["oases"]),
        "wells": [{"hex": list(coords[key]), "value": state["wells"][key]["value"]} for key in area.sort(state["wells"])],
        "camels": [
            {"hex": list(coords[key]), "seat": camels[key]["seat"], "colour": camels[key]["colour"], "leader": camels[key]["leader"]}
            for key in area.sort(camels)
        ],
        "areas": [
            {"seat": a["seat"], "colour": a["colour"], "hexes": hexes(a["hexes"]), "points": a["points"]}
            for a in state["areas"]
        ],
        "oasis_credits": [
            {"seat": other, "colour": colour, "hex": list(coords[oasis])}
            for other in range(n_players)
            for colour, oasis in state["oasis_credits"][other]
        ],
        "players": players,
        "last_placed": hexes(state["last_placed"]),
    }
    if seat is not None:
        view["my_wells"] = [well_token(well) for well in state["taken_wells"][seat]]
    if over:
        result = final_result(state, state["end_reason"] or "")
        view["end_reason"] = state["end_reason"]
        view["result"] = {"scores": result.scores, "ranks": result.ranks, "breakdown": result.breakdown}
    return view


def public_options(options: TableOptions) -> dict[str, str | bool]:
    """The table options, every one public (the lobby shows them too)."""
    return {
        "end_trigger": options["end_trigger"],
        "piles": options["piles"],
        "hide_well_values": options["hide_well_values"],
        "palm_placement": options["palm_placement"],
        "first_player": options.get("first_player", "random"),  # stored before the option: drawn
        "leader_return": options["leader_return"],
    }
