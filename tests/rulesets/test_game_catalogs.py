"""The French of Nimalia, Nomadi and Heroes (``locales/fr.po``, docs/i18n.md) beyond the kit's
check of what their games show (``tests/rulesets/test_catalogs.py``): every literal their
renderers pass to ``t()``/``tn()`` (``static/js/renderers/<game>.js``) and every refusal template
of the games that declare French have an entry, and a line of each reads as worked out by hand."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from app import i18n
from app.rulesets import heroes, nimalia, nomadi
from app.rulesets.base import Event, IllegalMove, Ruleset, amount
from app.rulesets.heroes.rules import Heroes
from app.rulesets.nimalia.rules import Nimalia
from app.rulesets.nomadi.rules import Nomadi
from app.rulesets.testing import check_catalogs
from app.services.errors import AppError

RENDERERS = Path(__file__).resolve().parents[2] / "static" / "js" / "renderers"
GAMES: list[tuple[type[Ruleset], tuple[str, ...]]] = [
    (Nimalia, ("nimalia.js",)),
    (Nomadi, ("nomadi.js",)),
    (Heroes, ("heroes.js", "heroes-full.js")),
]
"""Each game and its renderers."""
CALL = re.compile(r"""\bt\(\s*("(?:[^"\\]|\\.)*")|\btn\(\s*("(?:[^"\\]|\\.)*")""")
"""A ``t("...")`` or ``tn("...", ...)`` call with a literal msgid (a plural entry is keyed by its singular)."""


def renderer_msgids(source: str) -> set[str]:
    """The literal msgids of the ``t()`` and ``tn()`` calls of a renderer's source."""
    return {json.loads(next(group for group in match.groups() if group)) for match in CALL.finditer(source)}


def refusal_templates(package: Path) -> list[str | None]:
    """The messages a game refuses a move with: the literal first argument of every
    ``IllegalMove(...)`` (both branches of ``a if c else b``), the message of every
    ``require(condition, message)`` (Heroes' helper, whose own ``IllegalMove(message)`` is skipped)
    and every template a ``refusal_template`` method returns (Nomadi's, raised as
    ``IllegalMove(template, ...)``); ``None`` for one built in code (no catalog can hold it)."""
    found: list[str | None] = []

    def literal(node: ast.expr) -> None:
        if isinstance(node, ast.IfExp):
            literal(node.body)
            literal(node.orelse)
        else:
            found.append(node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None)

    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove" and node.args:
                # IllegalMove(template, ...) raises a refusal_template's (read below), IllegalMove(message)
                # a require()'s (read at its callers)
                if getattr(node.args[0], "id", None) not in ("template", "message"):
                    literal(node.args[0])
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require" and len(node.args) > 1:
                literal(node.args[1])
            if isinstance(node, ast.FunctionDef) and node.name == "refusal_template":
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and isinstance(inner.value, ast.Tuple):
                        literal(inner.value.elts[0])
    return found


def test_renderer_msgids_reads_t_and_tn_literals():
    source = 't("Round {round}", { round }) + tn("{n} coin", "{n} coins", 2) + t(name) + notit("x")'
    assert renderer_msgids(source) == {"Round {round}", "{n} coin"}


@pytest.mark.parametrize("ruleset_class,renderers", GAMES, ids=lambda value: getattr(value, "name", ""))
def test_every_renderer_string_has_a_french_entry(ruleset_class, renderers):
    catalog = i18n.parse_po(ruleset_class.locale_file("fr") or "", "fr")
    for renderer in renderers:
        msgids = renderer_msgids((RENDERERS / renderer).read_text(encoding="utf-8"))
        assert len(msgids) > 20, f"{renderer} says next to nothing through t()"
        missing = sorted(msgid for msgid in msgids if msgid not in catalog)
        assert not missing, f"{renderer}: {missing}"


@pytest.mark.parametrize("ruleset_class,package", [(Nimalia, nimalia), (Nomadi, nomadi), (Heroes, heroes)],
                         ids=["nimalia", "nomadi", "heroes"])
def test_every_refusal_is_a_template_with_a_french_entry(ruleset_class, package):
    templates = refusal_templates(Path(package.__file__).parent)
    catalog = i18n.parse_po(ruleset_class.locale_file("fr") or "", "fr")
    assert None not in templates and len(templates) > 5
    assert [template for template in templates if template not in catalog] == []


def test_a_refusal_of_nomadi_in_french():
    """A die that cannot make the jump, its cells and value filled in: worked out by hand from locales/fr.po."""
    refusal = AppError.from_game(IllegalMove("R-20: a {value} cannot take {origin} to {landing} over exactly {count} stones",
                                             value=4, origin="L4", landing="L8", count=3), Nomadi)
    assert refusal.message == "R-20: a 4 cannot take L4 to L8 over exactly 3 stones"
    assert refusal.message_in("fr") == "R-20\u00a0: un 4 ne peut pas mener L4 en L8 par-dessus exactement 3 pions"


def test_nomadi_turn_end_lines_in_english_and_french_put_no_possessive_after_a_bot_name():
    """A bot's name ends "(bot)": the turn's end names it without "'s" in English; the French says
    "all dice used" apart from the dice left that cannot be used."""
    catalog = i18n.ruleset_catalog(Nomadi, "fr")
    used = Event(text="Turn over for {seat1}: all dice used")
    assert used.render(("Ana", "Cyra (bot)")) == "Turn over for Cyra (bot): all dice used"
    assert (i18n.translate("fr", used.text, catalog, seat1="Cyra (bot)")
            == "Le tour de Cyra (bot) se termine\u00a0: tous les dés sont utilisés")
    stuck = i18n.translate("fr", "Turn over for {seat1}: no unused die can be used", catalog, seat1="Ben")
    assert stuck == "Le tour de Ben se termine\u00a0: aucun dé restant n'est utilisable"
    moved = i18n.translate("fr", "{seat0} moves a stone owned by {seat2} from {origin} to {landing} with a {die}",
                           catalog, seat0="Ana", seat2="Cyra (bot)", origin="Q17", landing="Q14", die="3")
    assert moved == "Ana déplace un pion de Cyra (bot) de Q17 à Q14 avec un 3"


def test_a_log_line_of_nimalia_in_french():
    """A card placed over two spaces, as the client writes it from the template and its arguments."""
    event = Event(text="{seat1} placed card {card}, turned {rotation}°, covering {spaces}",
                  args={"card": amount(17), "rotation": amount(90), "spaces": amount(2, "spaces")})
    assert event.render(("Ana", "Ben")) == "Ben placed card 17, turned 90°, covering 2 spaces"
    catalog = i18n.ruleset_catalog(Nimalia, "fr")
    spaces = i18n.translate("fr", "spaces", catalog)
    sentence = i18n.translate("fr", event.text, catalog, seat1="Ben", card="17", rotation="90", spaces=f"2 {spaces}")
    assert sentence == "Ben a posé la carte 17, tournée de 90°, en recouvrant 2 cases"


@pytest.mark.parametrize("ruleset_class", [Nimalia, Nomadi, Heroes], ids=lambda game: game.name)
def test_the_players_rules_page_in_french_has_the_english_sections_and_the_options_labels(client, ruleset_class):
    """``rules.fr.md``: the same sections as the players' part of ``reference.md``, each option and
    choice under the words the lobby shows in French (the catalog's), the numbered rules English."""
    from tests.api.test_rules_pages import option_labels, outline

    name = ruleset_class.name
    french, english = client.get(f"/rules/{name}", headers={"accept-language": "fr"}), client.get(f"/rules/{name}")
    sections = [[text for level, text in outline(page.text).headings if level == 2] for page in (french, english)]
    assert sections[0][0] == "Jouer en 2 minutes" and sections[1][0] == "How to play in 2 minutes"
    assert len(sections[0]) == len(sections[1])
    catalog = i18n.ruleset_catalog(ruleset_class, "fr")
    text = " ".join("".join(outline(french.text).text).split())
    missing = [label for label in option_labels(name) if i18n.translate("fr", label, catalog) not in text]
    assert missing == []


@pytest.mark.slow
def test_heroes_french_covers_the_lines_of_many_whole_random_games():
    """The kit's check plays one game per case; Heroes composes its lines from many parts (seats,
    workers, list lengths, the solo Enemy), so twenty whole games per case look further."""
    texts = check_catalogs(Heroes(), seeds=range(1, 21), cap=None)
    assert len(texts) > 700
