"""How good a Heroes position is for a seat, for searching bots (``Ruleset.evaluate``).

A seat's projected final score (running score and every end-game category), plus material (0.5
per point of natural strength in play), 0.1 per resource and 0.5 per captured Nomad, minus the
best opponent's (in solo: the Enemy's); an eliminated seat is worth -100.  Full edition: what its
spells, Buildings and vessels promise (:func:`full_edition_worth`).
"""

from __future__ import annotations

from collections import Counter

from app.rulesets.base import Seat
from app.rulesets.heroes.catalogue import of
from app.rulesets.heroes.houses import HOUSE
from app.rulesets.heroes.pieces import STRENGTH, natural_strength, units_at
from app.rulesets.heroes.scoring import breakdown, controlled_counts
from app.rulesets.heroes.state import HeroesState
from app.rulesets.heroes.vessels import cargo_at_sea


def materials(state: HeroesState) -> dict[str, int]:
    """Every seat's natural strength in play (``str(seat)`` -> points), the regions read once."""
    totals: dict[str, int] = {}
    for entry in state["regions"].values():
        for owner, units in entry["units"].items():
            totals[owner] = totals.get(owner, 0) + sum(count * STRENGTH[kind] for kind, count in units.items())
    return totals


def worth(state: HeroesState, seat: Seat, controlled: Counter[Seat | None] | None = None,
          material_by_seat: dict[str, int] | None = None) -> float:
    """One seat's heuristic value (see the module docstring); ``controlled`` as for
    ``scoring.breakdown`` and ``material_by_seat`` as :func:`materials` (worked out once for
    every seat of a state; here when not given)."""
    player = state["players"][seat]
    if player["eliminated"]:
        return -100.0
    value = float(sum(breakdown(state, seat, controlled).values()))
    material = (materials(state) if material_by_seat is None else material_by_seat).get(str(seat), 0)
    value += 0.5 * material + 0.1 * sum(player["resources"].values()) + 0.5 * player["nomads"]
    if "spells" in player:
        value += full_edition_worth(state, seat)
    return value


FULL_WEIGHTS: dict[str, float] = {
    "kept_base": 0.2, "kept_vp": 0.5, "kept_base_short": 0.2, "kept_vp_short": 0.45,
    "ready": 0.5, "ready_vp": 0.8, "waiting": 0.4, "waiting_vp": 0.6,
    "casting": 1.0, "casting_vp": 1.5,
    "building": 0.5, "vessel_building": 3.0, "vessel": 3.0, "vessel_strength": 0.5, "cargo": 0.5,
    "serf": 0.4, "ore": 0.15, "mana": 0.0, "food": 0.0, "cc_level": 10.0, "upgrade_saving": 6.0, "choice": 0.25,
}
"""The weights of :func:`full_edition_worth` (evaluation units: 1 = one VP at the end)."""


def full_edition_worth(state: HeroesState, seat: Seat) -> float:
    """What the full edition's assets promise beyond their end VP (in the breakdown already), with
    the :data:`FULL_WEIGHTS` ``w`` (set by self-play, ``bench/heroes_balance.py``: a one-ply bot
    sees only the position right after its move, so what an asset brings later is valued here):

    * each spell kept (up to the hand limit): ``kept_base`` + ``kept_vp`` per VP when its Mana is
      there to cast it, else ``kept_base_short`` + ``kept_vp_short`` per VP (Mana comes);
    * each spell over the hand limit (the seat is about to discard down to it) ``choice``: the
      choice of what to keep (the kept spells above count only the best VP, so a Research whose
      draw held no better card looked worth nothing, though it lets the seat keep a spell its Mana
      pays or one to scribe);
    * each scribed spell: Ready ``ready`` + ``ready_vp`` per VP, else ``waiting`` +
      ``waiting_vp`` per VP (it is cast again every third round and never discarded);
    * a spell of the seat's waiting for Interrupts: ``casting`` + ``casting_vp`` per VP (it
      resolves unless answered; without this a Cast looked like Mana paid for nothing).  The
      bot sees this state after a Cast whenever a seat of its sampled world holds an Interrupt
      it can pay, which more opponents make likelier: the effect is not applied yet, so
      ``casting`` stands for it (a Fireball's kill, Summon Serfs' 2 Serfs, 3 Food or Ore), and
      ``casting_vp`` above 1 for the next casts of a scribed spell, which one ply does not see
      (1.0 and 1.5 since revision 3's self-play: 0.5 and 1.0 left Cast under 5 % of token turns
      at 3 and 4 players);
    * each Building ``building`` (the Hero it unlocks), a vessel's Building ``vessel_building``
      (the vessel it unlocks, a Sail or Fly every round);
    * each vessel ``vessel`` + ``vessel_strength`` per point of strength; units aboard a vessel
      at sea ``cargo`` per point of strength (the material they count on land, so a Sail into a
      sea loses nothing);
    * up to 2 Serfs in the Courtyard ``serf`` each (a Building, a Follow or a Muster needs one);
    * each Ore, Mana and Food its weight beyond the 0.1 of every resource (Ore pays Buildings);
    * each C.C. level above 1 ``cc_level`` (a larger hand, scribed row and Tower limit: a
      seat scribes at most its C.C. level of spells, so Scribe's share of the turns follows
      the levels reached);
    * the share of the next C.C. level's cost held, ``upgrade_saving`` for all of it (Ore, Mana and
      Food each counted up to its part of the cost), so the bot saves up for the upgrade instead of
      spending every resource at once.

    ``cc_level`` 10 and ``upgrade_saving`` 6 since revision 3's self-play (4 and 3 before): at 3
    and 4 players almost every seat had filled its one scribed slot, so only more levels could
    raise Scribe above 5 % of token turns (``bench/results/heroes_full_balance_r3.md``)."""
    w = FULL_WEIGHTS
    catalogue = of(state)
    player = state["players"][seat]
    resources = player["resources"]
    mana = resources["mana"]
    upgrade = HOUSE.upgrade_cost(player["cc_level"] + 1)
    saved = (sum(min(resources[resource], amount) for resource, amount in upgrade.items()) / sum(upgrade.values())
             if upgrade else 0.0)
    spare = max(0, len(player["spells"]) - player["cc_level"])
    kept = sorted((catalogue.spell(card) for card in player["spells"]), key=lambda spell: -spell.vp)[:player["cc_level"]]
    vessels = [kind for kind, vessel in player["vessels"].items() if vessel]
    scribed = [(entry["status"] == "ready", catalogue.spell(entry["card"]).vp) for entry in player["scribed"]]
    serfs = min(2, units_at(state, player["capital"], seat)["serf"])
    vessel_buildings = {catalogue.vessel_building(player["faction"], kind) for kind in ("sea", "air")}
    aboard = cargo_at_sea(state, seat)
    pending = state["pending"]
    casting = state["phase"] == "interrupt" and pending is not None and pending["spell"]["caster"] == seat
    return (w["casting"] + w["casting_vp"] * pending["spell"]["vp"] if casting and pending is not None else 0.0) + (
            sum(w["kept_base"] + w["kept_vp"] * spell.vp if spell.mana <= mana
                else w["kept_base_short"] + w["kept_vp_short"] * spell.vp for spell in kept)
            + sum(w["ready"] + w["ready_vp"] * vp if ready else w["waiting"] + w["waiting_vp"] * vp for ready, vp in scribed)
            + sum(w["vessel_building"] if building in vessel_buildings else w["building"] for building in player["buildings"])
            + w["serf"] * serfs
            + sum(w["vessel"] + w["vessel_strength"] * catalogue.vessel(kind)["strength"] for kind in vessels)
            + w["cargo"] * natural_strength(aboard)
            + sum(w[resource] * amount for resource, amount in resources.items())
            + w["cc_level"] * (player["cc_level"] - 1)
            + w["upgrade_saving"] * saved
            + w["choice"] * spare)


def evaluate(state: HeroesState, seat: Seat) -> float:
    """The seat's worth minus the best opponent's."""
    controlled, material = controlled_counts(state), materials(state)
    others = [worth(state, other, controlled, material)
              for other in range(len(state["players"])) if other != seat]  # solo: the Enemy
    return worth(state, seat, controlled, material) - (max(others) if others else 0.0)
