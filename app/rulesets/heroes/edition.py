"""Setting up the full edition on a new game's state (``rounds.new_game``, ``solo.new_game``).

Every player gets its faction (by continent: ``data/factions.json``), no Building, no Hero in
play, its 3 Heroes in supply, no vessel, the whole Action Bar open (no greyed slot), an empty
scribed row; the spell deck is shuffled and each player is dealt its first spell (spec 1.5 step 3
[K]; the 6 Nomad spells are in the deck only at a Wandering table, NS0-2/NS-16); the exploration
tokens are laid out face down (``exploration.lay_out``).  The solo Enemy gets its faction, no
spells and no open slot.  A core game never calls this: its state keeps the layout of before.
"""

from __future__ import annotations

from app.rulesets.base import Rng
from app.rulesets.heroes import exploration, spells
from app.rulesets.heroes.board import Board
from app.rulesets.heroes.catalogue import of
from app.rulesets.heroes.state import HeroesState


def set_up(state: HeroesState, board: Board, rng: Rng, solo: bool) -> None:
    """Add the full edition's parts to ``state`` (module docstring), drawing from ``rng``."""
    for player in state["players"]:
        faction = of(state).faction_of(player["continent"])
        player["faction"] = faction
        player["buildings"] = []
        player["heroes"] = []
        player["scribed"] = []
        player["vessels"] = {"sea": None, "air": None}
        player["supply"]["hero"] = len(of(state).faction_heroes(faction))
        if not player.get("enemy"):
            player["bar"] = {slot: None for slot in player["bar"]}
    if solo:
        enemy = state["players"][1]
        enemy["supply"]["hero"] = 0  # its 3 Heroes stand in its Courtyard from the start (spec 1.12)
    spells.deal(state, rng, nomads=state["options"]["nomads"] == "wandering" and not solo)
    exploration.lay_out(state, board, rng)
