"""Positions for the Through the Desert tests, built directly as states (Spec §5 fixtures).

Seats: ``A = 0``, ``B = 1``, ``C = 2``.  ``TEST_BOARD`` is Spec §5's radius-3 hexagon (37 spaces,
no palm or well spaces of its own: each fixture says where its oases and wells are).
"""

from __future__ import annotations

from app.rulesets.base import Event
from app.rulesets.through_the_desert.board import Board, hex_key
from app.rulesets.through_the_desert.moves import COLOURS, Camel
from app.rulesets.through_the_desert.options import Options
from app.rulesets.through_the_desert.rules import ThroughTheDesert

A, B, C = 0, 1, 2
TEST_BOARD = Board.hexagon(3, name="spec-5-radius-3")
RULES = ThroughTheDesert(TEST_BOARD)


def position(
    leaders: dict[tuple[int, int], tuple[int, str]],
    camels: dict[tuple[int, int], tuple[int, str]] | None = None,
    oases: tuple[tuple[int, int], ...] = (),
    wells: dict[tuple[int, int], int] | None = None,
    n_players: int = 2,
    options: dict | None = None,
    piles: dict[str, int] | None = None,
    current: int = A,
    allowance: int = 2,
    ruleset: ThroughTheDesert = RULES,
) -> dict:
    """A main-phase state: ``leaders``/``camels`` map a hex to ``(seat, colour)``, ``wells`` a hex
    to its token value; every pile holds 20 unless ``piles`` says otherwise; T-3 is over."""
    state = ruleset.setup(n_players, Options(**(options or {})), seed=7)
    placed = {hex_key(h): {"seat": s, "colour": c, "leader": True} for h, (s, c) in leaders.items()}
    placed |= {hex_key(h): {"seat": s, "colour": c, "leader": False} for h, (s, c) in (camels or {}).items()}
    state.update(
        phase="camels",
        start_player=A,
        current=current,
        turn=10,
        allowance=allowance,
        placed=0,
        last_placed=[],
        piles={colour: 20 for colour in COLOURS} | (piles or {}),
        oases=[hex_key(h) for h in oases],
        wells={hex_key(h): {"id": f"well-{i:02d}", "value": v} for i, (h, v) in enumerate((wells or {}).items(), 1)},
        camels=placed,
        leaders_in_hand=[[] for _ in range(n_players)],
        returned=[None] * n_players,
    )
    state.pop("well_pool", None)
    return state


def place(state: dict, seat: int, colour: str, hex_: tuple[int, int], ruleset: ThroughTheDesert = RULES) -> tuple[dict, list[Event]]:
    """``seat`` places one camel, whoever's turn it was (fixtures ignore turn order)."""
    state = dict(state, current=seat, placed=0, allowance=2)
    return ruleset.apply(state, seat, Camel(colour=colour, hex=hex_))


def points_so_far(state: dict, seat: int, ruleset: ThroughTheDesert = RULES) -> int:
    """Wells plus oasis credits of ``seat`` (the points won during play), from its own view."""
    player = ruleset.view(state, seat)["players"][seat]
    return player["well_points"] + player["oasis_points"]


def area_sets(state: dict) -> list[tuple[int, str, set[tuple[int, int]], int]]:
    """The areas of a state as ``(seat, colour, hexes, points)``."""
    return [
        (a["seat"], a["colour"], {tuple(map(int, k.split(","))) for k in a["hexes"]}, a["points"])
        for a in state["areas"]
    ]
