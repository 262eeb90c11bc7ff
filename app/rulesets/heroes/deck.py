"""The solo Enemy's deck of 8 Solo Action Cards (spec 1.12, 2.6 [H]; ``data/solo_enemy.json``).

``state["solo"]`` holds ``deck`` (card ids, next card first: secret, a view shows only its
size), ``discard`` (face up) and ``slots`` (the cards in Hero slots 1-3 and the 4th card of
NS-14, ``None`` while empty).  When only 1 card is left in the deck after a draw, it is
shuffled with the discards (not the cards in the Hero slots) into a new deck (spec 1.12).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from app.rulesets.base import Rng, amount, words
from app.rulesets.heroes.phrases import Phrase
from app.rulesets.heroes.state import HeroesState


@dataclass(frozen=True)
class EnemyCard:
    """One Solo Action Card: its action (``recruit``, ``tax``, ``build``, ``track``, ``attack``),
    whether the player may follow it, its compass ``arrow`` (``"N"``..``"NW"``), the strength it
    adds when drawn for a battle, and the tactic it names when the Enemy attacks or defends."""

    id: int
    action: str
    followable: bool
    arrow: str
    strength: int
    attack_tactic: str
    defence_tactic: str
    full_action: str | None = None


@cache
def solo_data() -> dict[str, Any]:
    """The parsed ``data/solo_enemy.json``."""
    return json.loads(resources.files("app.rulesets.heroes").joinpath("data/solo_enemy.json").read_text())


@cache
def cards() -> dict[int, EnemyCard]:
    """The 8 house Enemy cards by id (spec 2.6)."""
    return {entry["id"]: EnemyCard(**{key: entry[key] for key in EnemyCard.__dataclass_fields__ if key in entry})
            for entry in solo_data()["cards"]}


ACTION_NAMES = {"research": "Research (its Hero's spell)", "recruit": "Recruit", "tax": "Tax", "build": "Build (Tower, else C.C. track)",
                "track": "Build C.C. track", "attack": "Attack"}


def describe(card_id: int, full: bool = False) -> Phrase:
    """``"card 5 (Build (Tower, else C.C. track), arrow NE)"``: a card in a log line (``full``: the
    full edition's action of a card that has one), as the phrase ``"card {enemy_card} ({enemy_action},
    arrow {enemy_arrow})"`` (its number, action and arrow are arguments, translated apart)."""
    card = cards()[card_id]
    action = action_of(card, full)
    return Phrase("card {enemy_card} ({enemy_action}, arrow {enemy_arrow})",
                  {"enemy_card": amount(card.id), "enemy_action": words(ACTION_NAMES[action]), "enemy_arrow": words(card.arrow)})


def action_of(card: EnemyCard, full: bool) -> str:
    """The card's action: in the full edition a card with a ``full_action`` does that instead
    (Research: the acting Hero's spell, spec 1.12)."""
    return card.full_action if full and card.full_action else card.action


def new_deck(rng: Rng) -> list[int]:
    """All 8 card ids, shuffled."""
    deck = sorted(cards())
    rng.shuffle(deck)
    return deck


def in_slot(state: HeroesState, slot: int) -> int:
    """The card in Hero slot ``slot`` (1-4); raises ``ValueError`` while the slot is empty."""
    card = state["solo"]["slots"][slot - 1]
    if card is None:
        raise ValueError(f"the Enemy's slot {slot} holds no card yet")
    return card


def draw(state: HeroesState) -> int:
    """Take the top card of the Enemy deck (the caller puts it in a slot or the discard); then
    reshuffle if only 1 card is left (spec 1.12)."""
    solo = state["solo"]
    card = solo["deck"].pop(0)  # never empty: at most 4 cards are in Hero slots, the rest refill it
    if len(solo["deck"]) <= 1:
        reshuffle(state)
    return card


def reshuffle(state: HeroesState) -> None:
    """The deck and the discards, shuffled into a new deck (the Hero slots keep their cards)."""
    solo = state["solo"]
    rng = Rng(state["rng"])
    deck = solo["deck"] + solo["discard"]
    rng.shuffle(deck)
    state["rng"] = rng.state
    solo["deck"], solo["discard"] = deck, []
