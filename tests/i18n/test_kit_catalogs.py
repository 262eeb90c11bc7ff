"""The conformance kit's language check (app/rulesets/testing.py, check_catalogs) on a small game
whose catalog is given in the test: a missing entry, a missing file and a complete catalog."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import pytest
from pydantic import BaseModel, Field

from app.rulesets.base import Event, MoveModel, Result, Ruleset, amount, card
from app.rulesets.testing import check_catalogs, option_texts

HEADER = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
ENTRIES = {
    "{seat0} draws {card} and pays {cost}": "{seat0} pioche {card} et paie {cost}",
    "the Moon": "la Lune",
    "coins": "pièces",
    "all cards drawn": "toutes les cartes sont piochées",
    "Two cards": "Deux cartes",
    "Short game": "Partie courte",
    "Deal": "Donne",
    "A game of drawing two cards.": "Un jeu où l'on pioche deux cartes.",
    "Long": "Longue",
    "Short": "Courte",
}


class Draw(MoveModel):
    type: Literal["draw"]


class DrawOptions(BaseModel):
    two: bool = Field(True, title="Two cards", description="Short game")
    deal: Literal["long", "short"] = Field("short", title="Deal")


class DrawGame(Ruleset):
    """Seat 0 draws two cards; every draw is logged with a card name and an amount."""

    name = "draw-game"
    title = "Draw"
    min_players = 1
    max_players = 1
    summary = "A game of drawing two cards."
    languages: ClassVar[tuple[str, ...]] = ("en", "fr")
    Options = DrawOptions
    Move = Annotated[Draw, Field(discriminator="type")]
    catalog: ClassVar[dict[str, str] | None] = ENTRIES

    @classmethod
    def locale_file(cls, language):
        if cls.catalog is None or language != "fr":
            return None
        return HEADER + "".join(f'msgid "{key}"\nmsgstr "{value}"\n\n' for key, value in cls.catalog.items())

    def setup(self, n_players, options, seed):
        return {"drawn": 0}

    def to_act(self, state):
        return set() if state["drawn"] >= 2 else {0}

    def legal_moves(self, state, seat):
        return [Draw(type="draw")] if seat in self.to_act(state) else []

    def apply(self, state, seat, move):
        event = Event(text="{seat0} draws {card} and pays {cost}", args={"card": card("the Moon"), "cost": amount(2, "coins")})
        return {"drawn": state["drawn"] + 1}, [event]

    def view(self, state, seat):
        return dict(state)

    def result(self, state):
        return Result(scores=[1], ranks=[1], reason="all cards drawn") if state["drawn"] >= 2 else None


def test_the_options_form_words_are_the_titles_descriptions_choices_and_summary():
    assert option_texts(DrawGame()) == {"Two cards", "Short game", "Deal", "Long", "Short", "A game of drawing two cards."}


def test_a_complete_catalog_passes_and_every_shown_text_was_looked_for():
    texts = check_catalogs(DrawGame())
    assert texts == set(ENTRIES)


@pytest.mark.parametrize("left_out", ["the Moon", "coins", "all cards drawn", "{seat0} draws {card} and pays {cost}", "Long"])
def test_a_text_without_an_entry_fails(left_out):
    class Incomplete(DrawGame):
        catalog = {key: value for key, value in ENTRIES.items() if key != left_out}

    with pytest.raises(AssertionError, match="without a 'fr' entry") as failure:
        check_catalogs(Incomplete())
    assert repr(left_out) in str(failure.value)


def test_a_declared_language_without_a_catalog_fails():
    class NoFile(DrawGame):
        catalog = None

    with pytest.raises(AssertionError, match="declares 'fr' but ships no locales/fr.po"):
        check_catalogs(NoFile())
