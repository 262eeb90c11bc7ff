"""What a seat does not know, sampled: the state behind a view, for searching bots
(``Ruleset.determinize``; ``app/bots`` calls it, the rules never call the bots).

The view holds everything but the PRNG, the other side's unrevealed tactic choice and, in solo,
the order of the Enemy's deck (``view.py``); those are drawn from the bot's ``rng``: the choice
uniformly among that seat's legal tactic moves, the deck as the unseen cards shuffled.
"""

from __future__ import annotations

from typing import Any, cast

from app.rulesets.base import Rng, Seat, copy_state
from app.rulesets.heroes import deck
from app.rulesets.heroes.battles import tactic_choice, tactic_options
from app.rulesets.heroes.state import HeroesState, TacticChoice

STATIC_KEYS = ("map", "tactic_cards", "costs", "enemy_cards", "seas", "spell_cards", "factions", "vessel_kinds",
               "building_cost", "token_kinds")
"""The view's keys for the renderer (``view.static_parts``), not part of a state."""


def unseen_spells(world: dict[str, Any], seat: Seat, rng: Rng) -> None:
    """Full edition: the other players' hands, the spell deck and the face-down tokens, drawn from
    what ``seat`` has not seen (every card not in its hand, the discard or a scribed row; every
    token not revealed), with the sizes the view shows."""
    from app.rulesets.heroes.catalogue import of
    catalogue = of(world)  # the view shows the options
    discard: list[str] = list(world["spell_discard"])
    seen = list(discard)
    players = world["players"]
    for player in players:
        seen += [entry["card"] for entry in player.get("scribed", [])]
        if "spells" in player:
            seen += player["spells"]
    solo = world.get("solo") is not None
    pool = list(catalogue.deck(world["options"]["nomads"] == "wandering" and not solo))
    for card in seen:
        if card in pool:
            pool.remove(card)
    rng.shuffle(pool)
    for index, player in enumerate(players):
        size = player.pop("hand_size")
        if index != seat or "spells" not in player:
            player["spells"] = [pool.pop() for _ in range(size)]
    world["spell_deck"] = pool[:world.pop("spell_deck_size")]
    hidden = world.pop("tokens")
    tokens = {"land": catalogue.tokens("land"), "sea": catalogue.tokens("sea")}
    for token in world["revealed"].values():
        for group in tokens.values():
            if token in group:
                group.remove(token)
    for group in tokens.values():
        rng.shuffle(group)
    world["tokens"] = {region: tokens["sea" if region.startswith("sea_") else "land"].pop() for region in hidden}


def determinize(view: dict[str, Any], seat: Seat, rng: Rng) -> HeroesState:
    """A full state behind ``seat``'s view (see the module docstring)."""
    world = copy_state(view)
    for static in STATIC_KEYS:
        world.pop(static, None)
    if world.get("solo") is not None:
        world["solo"].pop("deck_size", None)  # the view's stand-in for the deck, drawn below
    mine: TacticChoice | None = world["pending"].pop("mine", None) if world["pending"] is not None else None
    # The view is the state's JSON minus its secrets (view.py): typed again as they come back.
    state = cast(HeroesState, world)
    state["rng"] = rng.next64()
    if "spell_deck_size" in world:
        unseen_spells(world, seat, rng)
    solo = state.get("solo")
    if solo is not None:  # the Enemy's deck: every card not in a Hero slot or the discard, shuffled
        seen = set(solo["discard"]) | {card for card in solo["slots"] if card is not None}
        solo["deck"] = [card for card in sorted(deck.cards()) if card not in seen]
        rng.shuffle(solo["deck"])
    pending = state["pending"]
    if pending is not None and "chosen" in pending:
        choices: dict[str, TacticChoice] = {}
        for other, chosen in pending["chosen"].items():
            if not chosen or not state["players"][int(other)]["tactics"]:
                continue  # still to choose, or (the solo Enemy) no tactic hand: it draws at the reveal
            if int(other) == seat and mine is not None:
                choices[other] = mine
            else:
                options = tactic_options(state, pending["battle"], int(other))
                choices[other] = tactic_choice(rng.choice(options))
        pending["choices"] = choices
    return state
