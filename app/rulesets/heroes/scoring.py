"""X-objectives, the end of the game and final scoring (spec 1.11, 2.2).

* eXpand: all of one player's Serfs and Warriors are in play (its supply of both is empty);
  eXploit: all 3 of its Towers are in play; eXterminate: it destroyed a capital (``exterminate``,
  after ``battles.destroy_capital``; not in solo, where a destroyed capital ends the game at once).
  eXplore needs exploration tokens (out of Tier 1).  The first objective met sets ``end``:
  the current round is finished, then one more full round is played; it cannot be undone.
* ``round_limit`` (our option): the game also ends after that round, whatever ``end`` says.
* [D] The game ends at once when fewer than 2 players are left (nobody to play against).
* Final score: the running score (battles, tactic cards, capitals) + Hall 2 + 2 per Tower +
  1 per Warrior + 2 per Hero in play + C.C. level VP (0/3/6) + 1 per controlled region, the
  capital region included (a standing capital is a Structure).  Captured Nomads score 0 (NC-6);
  Nomad Mercenary figures score 0 (spec 2.7 [H]: no VP on the unknown card), though like any unit
  they control their region.
  An eliminated player scores 0.  Tied players share the place (no tie-breaker is known).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.rulesets.base import Event, Result, Seat, amount, rank_by_score
from app.rulesets.heroes.catalogue import of
from app.rulesets.heroes.exploration import explore_met
from app.rulesets.heroes.houses import HOUSE
from app.rulesets.heroes.pieces import active_seats, is_full, log_name, towers_of
from app.rulesets.heroes.vessels import cargo_at_sea
from app.rulesets.heroes.state import HeroesState

DURING_PLAY = "VP during play"
"""The category of the running score (battles, tactic cards, capitals destroyed; solo: the Enemy's
track steps and Nomads too), named as the game's words so the result's table says it: the
platform shows a category by its key, and "score" beside "Total" read as the same number twice."""
CATEGORIES = (DURING_PLAY, "hall", "towers", "warriors", "hero", "capital", "regions")
FULL_CATEGORIES = ("buildings", "vessels", "scribed")
"""The full edition's end-game categories besides :data:`CATEGORIES` (all VP values [H])."""


def check_objectives(state: HeroesState, events: list[Event]) -> None:
    """Set ``end`` the first time a player meets eXpand or eXploit (eXterminate is set where a
    capital falls)."""
    if state["end"] is not None:
        return
    for seat in active_seats(state):
        supply = state["players"][seat]["supply"]
        objective = None
        if supply["serf"] == 0 and supply["warrior"] == 0:
            objective = "eXpand"
        elif supply["tower"] == 0:
            objective = "eXploit"
        if objective:
            state["end"] = {"objective": objective, "by": seat, "round": state["round"],
                            "last_round": state["round"] + 1}
            events.append(Event(text=f"{log_name(state, seat, start=True)} meets {objective}: "
                                     "this round and one more are played"))
            return
    if explore_met(state):  # full edition: the seat that revealed the last land token meets it
        last = state["last"]
        seat = last["seat"] if last is not None else state["first_player"]
        state["end"] = {"objective": "eXplore", "by": seat, "round": state["round"], "last_round": state["round"] + 1}
        events.append(Event(text=f"{log_name(state, seat, start=True)} meets eXplore: this round and one more are played"))


def exterminate(state: HeroesState, attacker: Seat, events: list[Event]) -> None:
    """Spec 1.11 eXterminate: ``attacker`` destroyed a capital; the first objective met sets the end."""
    if state["end"] is None:
        state["end"] = {"objective": "eXterminate", "by": attacker, "round": state["round"],
                        "last_round": state["round"] + 1}
        events.append(Event(text=f"{{seat{attacker}}} meets eXterminate: this round and one more are played"))


def game_over_after_round(state: HeroesState) -> str | None:
    """Why the game ends with the round just finished, or ``None`` if another round follows."""
    if state["end"] is not None and state["round"] >= state["end"]["last_round"]:
        return state["end"]["objective"]
    if state["round"] >= state["options"]["round_limit"]:
        return "round_limit"
    return None


def controlled_counts(state: HeroesState) -> Counter[Seat | None]:
    """How many regions each seat controls (``None``: nobody), every region looked at once: the
    rule of ``pieces.controller`` (spec 1.9: units first, the lowest seat among several, then a
    Tower, a standing capital, a vessel), with the capitals and vessels read once for all regions."""
    capitals: dict[str, Seat] = {}
    vessel_owner: dict[str, Seat] = {}
    for seat, player in enumerate(state["players"]):
        if not player["eliminated"]:
            capitals.setdefault(player["capital"], seat)
        for vessel in player.get("vessels", {}).values():
            if vessel is not None:
                vessel_owner.setdefault(vessel["at"], seat)
    counts: Counter[Seat | None] = Counter()
    for region, entry in state["regions"].items():
        units = entry["units"]
        if units:
            counts[min(int(seat) for seat in units)] += 1
        elif entry["tower"] is not None:
            counts[entry["tower"]] += 1
        else:
            counts[capitals.get(region, vessel_owner.get(region))] += 1
    return counts


def breakdown(state: HeroesState, seat: Seat, controlled: Counter[Seat | None] | None = None) -> dict[str, int]:
    """The seat's final score by category (all 0 once eliminated).  ``controlled``: the regions
    each seat controls (:func:`controlled_counts`), so a caller scoring every seat of one state
    works them out once; worked out here when not given."""
    player = state["players"][seat]
    if player["eliminated"]:
        return {category: 0 for category in CATEGORIES + (FULL_CATEGORIES if is_full(state) else ())}
    warriors = hero = 0
    for entry in state["regions"].values():
        units = entry["units"].get(str(seat))
        if units:
            warriors += units["warrior"]
            hero += units["hero"]
    regions = (controlled_counts(state) if controlled is None else controlled)[seat]
    if is_full(state):
        aboard = cargo_at_sea(state, seat)
        warriors += aboard["warrior"]
        hero += aboard["hero"]
    parts = {
        DURING_PLAY: player["score"],
        "hall": HOUSE.hall_vp if player["hall"] else 0,
        "towers": HOUSE.tower["end_vp"] * len(towers_of(state, seat)),
        "warriors": HOUSE.end_vp("warrior") * warriors,
        "hero": HOUSE.end_vp("hero") * hero,
        "capital": HOUSE.capital_vp(player["cc_level"]),
        "regions": HOUSE.vp("per_controlled_region") * regions,
    }
    if is_full(state):  # the full edition's categories (a core result keeps its shape)
        catalogue = of(state)
        parts["buildings"] = catalogue.building["end_vp"] * len(player["buildings"])
        parts["vessels"] = sum(catalogue.vessel(kind)["end_vp"] for kind, vessel in player["vessels"].items() if vessel)
        parts["scribed"] = catalogue.spell_number("scribed_end_vp") * len(player["scribed"])
    return parts


REASONS = {
    "eXpand": "{who} met eXpand (all Serfs and Warriors in play)",
    "eXploit": "{who} met eXploit (all Towers in play)",
    "eXterminate": "{who} met eXterminate (destroyed a capital)",
    "eXplore": "{who} met eXplore (every land exploration token revealed)",
}
"""Why the game ended, by the objective met (``who``: the log name of the seat that met it)."""
ROUND_LIMIT = "the round limit ({limit}) was reached"
"""Why a game ended by the table's round limit: a template of the result's reason, ``{limit}`` its
argument (:func:`round_limit_args`), so one catalog entry says it for every limit."""


def round_limit_args(state: HeroesState) -> dict[str, dict[str, Any]]:
    """The argument of :data:`ROUND_LIMIT`: the table's round limit, a number."""
    return {"limit": amount(state["options"]["round_limit"])}


def finished_by(state: HeroesState) -> str | None:
    """Why the game ended (``end.finished``, else the objective met; ``None`` without an end)."""
    end = state["end"]
    return None if end is None else end.get("finished", end["objective"])


def final_result(state: HeroesState) -> Result:
    """Spec 1.11: the final scores, ranks (ties share) and breakdowns."""
    parts = [breakdown(state, seat) for seat in range(state["n_players"])]
    scores = [sum(part.values()) for part in parts]
    end = state["end"]
    finished = finished_by(state)
    args: dict[str, dict[str, Any]] = {}
    if end is not None and finished in REASONS:
        reason = REASONS[finished].format(who=log_name(state, end["by"])) + "; the round and one more were played"
    elif finished == "last_standing":
        reason = "only one player is left"
    else:
        reason, args = ROUND_LIMIT, round_limit_args(state)
    return Result(scores=scores, ranks=rank_by_score(scores), breakdown=parts, reason=reason, reason_args=args)
