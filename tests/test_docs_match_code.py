"""The documents a developer reads first say what the code does, both ways.

``docs/api.md`` is the public interface our client, bots and benchmarks speak: every REST route it
names exists, every route the app serves is named there, and the WebSocket frame types and the
``state`` frame's fields are the ones ``app/realtime/frames.py`` defines.  ``docs/rules/README.md``
indexes the rule codes of every reference: each family of codes a reference defines is named in
its game's row.
"""

from __future__ import annotations

import ast
import re
import typing
from pathlib import Path

import pytest

from app.main import create_app
from app.realtime import frames
from app.rulesets.reference import defined
from app.rulesets.registry import Registry
from tests.conftest import make_settings

DOCS = Path(__file__).resolve().parents[1] / "docs"
METHOD = r"(?:GET|POST|PUT|PATCH|DELETE)"


def route_key(method: str, path: str) -> tuple[str, str]:
    """``("GET", "/api/tables/{}")``: the query string and parameter names left out."""
    return method, re.sub(r"\{[^}]+\}", "{}", path.split("?")[0])


def documented_routes(text: str) -> set[tuple[str, str]]:
    """Every ``METHOD /api/...`` in backticks; ``, `DELETE ...``` after one names the same path."""
    found = set()
    for first, more in re.findall(rf"`({METHOD} /api/[^`]*)`((?:, `{METHOD} \.\.\.`)*)", text):
        method, rest = first.split(" ", 1)
        path = rest.split(" ", 1)[0]  # "POST /api/account/name {name}": the body is not the path
        found.add(route_key(method, path))
        found |= {route_key(other, path) for other in re.findall(rf"`({METHOD}) \.\.\.`", more)}
    return found


@pytest.fixture(scope="module")
def api_text() -> str:
    return (DOCS / "api.md").read_text(encoding="utf-8")


def test_every_rest_route_is_documented_and_every_documented_route_exists(tmp_path_factory, api_text):
    app = create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('docs')}/unused.db"))
    served = {route_key(method.upper(), path)
              for path, operations in app.openapi()["paths"].items() if path.startswith("/api/")
              for method in operations if method != "head"}
    documented = documented_routes(api_text)
    assert sorted(served - documented) == [], "routes the app serves that docs/api.md does not name"
    assert sorted(documented - served) == [], "routes docs/api.md names that the app does not serve"


def frame_types(union) -> set[str]:
    """The ``type`` tags of a tagged union of frame models."""
    members = typing.get_args(typing.get_args(union)[0]) if typing.get_origin(union) is typing.Annotated \
        else typing.get_args(union)
    return {typing.get_args(member.model_fields["type"].annotation)[0] for member in members}


def test_the_websocket_section_names_exactly_the_frames_the_code_defines(api_text):
    section = api_text.split("## WebSocket", 1)[1]
    client_part = section.split("Client frames:", 1)[1].split("Server frames:", 1)[0]
    server_part = section.split("Server frames:", 1)[1].split("\n\n", 1)[0]  # its list, up to the blank line
    assert set(re.findall(r'\{"type":"(\w+)"', client_part)) == frame_types(frames.ClientFrame)
    assert set(re.findall(r'\{"type":"(\w+)"', server_part)) == frame_types(frames.ServerFrame)


def test_the_state_frame_is_documented_field_by_field(api_text):
    line = next(line for line in api_text.splitlines() if line.startswith('- `{"type":"state"'))
    assert set(re.findall(r'"(\w+)":', line)) == set(frames.StateFrame.model_fields)


def code_family(code: str) -> str:
    """The letters a rule code starts with: ``E-5`` -> ``E``, ``NS0-1`` -> ``NS``, ``T-P1`` -> ``T``."""
    return re.match(r"[A-Za-z]*", code).group(0)


@pytest.mark.parametrize("ruleset", Registry.discover().all(), ids=lambda ruleset: ruleset.name)
def test_the_rules_index_names_every_family_of_codes_a_reference_defines(ruleset):
    index = (DOCS / "rules" / "README.md").read_text(encoding="utf-8")
    row = next(line for line in index.splitlines() if f"/rules/{ruleset.name}`" in line)
    codes_cell = row.rstrip(" |").rsplit("|", 1)[1]
    families = {code_family(code) for code in defined(ruleset.reference())} - {""}  # "" : section numbers
    missing = sorted(family for family in families
                     if not re.search(rf"(?<![A-Za-z]){family}(?=[-0-9])", codes_cell))
    assert missing == [], f"docs/rules/README.md does not name {missing} in the row of {ruleset.name}"


def test_every_test_the_architecture_page_names_exists():
    """The move pipeline's rules each name the test that guards them: a renamed or deleted test
    would leave a rule unguarded without anyone noticing."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    named = re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`", text)
    assert len(named) >= 13
    root = DOCS.parent
    missing = [f"{path}::{name}" for path, name in named
               if not (root / path).exists() or not re.search(rf"^def {name}\(", (root / path).read_text(), re.M)]
    assert missing == []


def test_the_readme_says_what_building_the_wheel_compiles_and_what_a_wheel_runs_on():
    """Building compiles every C extension ``setup.py`` declares: the README names each, what the
    build needs, that the wheel is made for one Python version and platform, and the fallback."""
    root = DOCS.parent
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())  # lines joined
    calls = [node for node in ast.walk(ast.parse((root / "setup.py").read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Extension"]
    sources = [source.value for call in calls for source in call.args[1].elts]
    assert sources == ["app/rulesets/nomadi/_movegen.c"]
    assert all(f"`{source}`" in readme for source in sources)
    assert all(any(keyword.arg == "optional" and keyword.value.value is True for keyword in call.keywords)
               for call in calls)  # what the README says happens without a compiler
    for words in ("C compiler", "Python's headers", "-cp311-cp311-linux_x86_64.whl", "pure-Python move generator",
                  "`CARAVANSERAI_PURE_PYTHON=1`"):
        assert words in readme, words
    assert '"CARAVANSERAI_PURE_PYTHON"' in (root / "app" / "rulesets" / "nomadi" / "bitboard.py").read_text(encoding="utf-8")
