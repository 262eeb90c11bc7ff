"""Heroes' log lines as templates with typed arguments (``app/rulesets/heroes/phrases.py``): the
English words are those of the lists written out before, and a line reads in French from
``locales/fr.po`` with its arguments translated apart (worked out by hand from the catalog)."""

from __future__ import annotations

from app import i18n
from app.rulesets.base import Event, amount, card
from app.rulesets.heroes import Heroes
from app.rulesets.heroes.houses import describe_resources, describe_units
from app.rulesets.heroes import phrases, solo
from app.rulesets.heroes.phrases import flattened, resources, said, units, unflattened


def test_a_unit_list_is_one_amount_per_kind_strongest_first():
    phrase = units({"serf": 2, "warrior": 1, "hero": 1})
    assert phrase.text == "{units0}, {units1} and {units2}"
    assert [phrase.args[name]["text"] for name in ("units0", "units1", "units2")] == ["1 Hero", "1 Warrior", "2 Serfs"]
    assert phrase.args["units2"] == amount(2, "Serfs")
    assert Event(text=phrase.text, args=phrase.args).render(()) == describe_units({"serf": 2, "warrior": 1, "hero": 1})
    assert units({}).text == "nothing" and units({}).args == {}


def test_a_resource_list_is_joined_by_plus_and_skips_zeros():
    phrase = resources({"ore": 1, "mana": 0, "food": 2})
    assert phrase.text == "{cost0} + {cost1}"
    assert Event(text=phrase.text, args=phrase.args).render(()) == "1 Ore + 2 Food" == describe_resources({"ore": 1, "food": 2})
    assert resources({"ore": 0}).text == "nothing"


def test_a_collection_line_in_french():
    """Ben collects 1 Ore + 2 Food: the template, then each amount's unit, from locales/fr.po."""
    event = said("{seat1} collects {gained}", gained=resources({"ore": 1, "food": 2}, "gained")).event()
    assert event.text == "{seat1} collects {gained0} + {gained1}"
    assert event.render(("Ann", "Ben")) == "Ben collects 1 Ore + 2 Food"
    catalog = i18n.ruleset_catalog(Heroes, "fr")
    template = i18n.translate("fr", event.text, catalog)
    assert template == "{seat1} récolte {gained0} + {gained1}"
    ore, food = (i18n.translate("fr", event.args[name]["unit"], catalog) for name in ("gained0", "gained1"))
    sentence = template.replace("{seat1}", "Ben").replace("{gained0}", f"1 {ore}").replace("{gained1}", f"2 {food}")
    assert sentence == "Ben récolte 1 Minerai + 2 Nourriture"


def test_a_flattened_event_keeps_players_and_writes_the_rest_in():
    event = said("{seat0} scribes {card} for {cost}", card=card("Fireball"), cost=resources({"mana": 3})).event()
    flat = flattened(event)
    assert flat.text == "{seat0} scribes Fireball for 3 Mana" and flat.args == {}
    assert flat.render(("Ann",)) == event.render(("Ann",)) == "Ann scribes Fireball for 3 Mana"


def test_an_unflattened_event_is_the_typed_event_again():
    event = said("The Enemy gains {gained} on entering {region}", gained=amount(1, "Food"),
                 region=phrases.region("E_plains")).event()
    flat = flattened(event)
    assert flat.text == "The Enemy gains 1 Food on entering East Plains"
    assert unflattened(flat, solo.OPENING_TEMPLATES, {"East Plains": "E_plains"}) == event
    # a line of no known template, or whose region is unknown, stays as stored
    assert unflattened(flat, solo.OPENING_TEMPLATES, {}) == flat
    other = Event(text="The Enemy waits")
    assert unflattened(other, solo.OPENING_TEMPLATES, {}) == other


def test_the_solo_opening_lines_are_logged_typed_with_their_english_words(monkeypatch):
    """Every line the solo setup stores filled in (``solo.new_game``) is logged by the first move as
    the typed event it was made from: the same template, arguments, rule and readers."""
    made: list[Event] = []
    monkeypatch.setattr(solo, "flattened", lambda event: made.append(event) or flattened(event))
    rules = Heroes()
    checked = 0
    for edition in ("core", "full"):
        for nomads in ("wandering", "mercenary", "none"):
            for seed in range(40):
                made.clear()
                state = rules.setup(1, rules.parse_options({"edition": edition, "nomads": nomads}), seed)
                stored = state["solo"]["opening"]
                assert [solo.opening_line(line, state["regions"]) for line in stored] == made
                checked += len(made)
    assert checked > 400


def test_a_solo_result_in_french():
    """The Enemy wins 30 VP to 41 at the round limit 12: the template and its numbers, from locales/fr.po."""
    catalog = i18n.ruleset_catalog(Heroes, "fr")
    template = "{seat0} loses to the Enemy, {mine} VP to {theirs}: the round limit ({limit}) was reached"
    sentence = i18n.translate("fr", template, catalog, seat0="Ana", mine="30", theirs="41", limit="12")
    assert sentence == "Ana perd contre l'Ennemi, 30 PV à 41\u00a0: la limite de manches (12) a été atteinte"
