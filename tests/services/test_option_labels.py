"""Table options are named in words a player uses, in the lobby form, the table's terms and the
rules page alike: the option keys stay (stored tables keep them), only titles and choice labels."""

from __future__ import annotations

from app.rulesets.registry import Registry
from app.services.tables.terms import option_words


def test_through_the_desert_options_read_as_words_not_keys():
    ruleset = Registry.discover().get("through-the-desert")

    words = option_words(ruleset, {"piles": "zman", "hide_well_values": False})

    assert words == ["Camels per pile: Z-Man edition", "Keep taken wells secret: off"]
    schema = type(ruleset).Options.model_json_schema()["properties"]
    assert schema["piles"]["enum"] == ["classic", "zman"]  # the keys a stored table holds
    assert schema["piles"]["choice_labels"] == {"classic": "Classic", "zman": "Z-Man edition"}


def test_no_option_label_of_any_game_is_a_bare_key():
    for ruleset in Registry.discover().all():
        for name, field in type(ruleset).Options.model_json_schema().get("properties", {}).items():
            choices = field.get("choice_labels") or {}
            shown = [field.get("title") or name] + [choices.get(choice, choice) for choice in field.get("enum", []) if isinstance(choice, str)]
            assert "Zman" not in " ".join(shown).title().replace("Z-Man", ""), f"{ruleset.name}.{name}: {shown}"
