"""The one-way imports of docs/architecture.md ("Layout"), read from the code itself.

Every ``import`` and ``from ... import`` in ``app/`` counts, at module level or inside a function:
a late import still ties the two modules together.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"

SERVICE_LAYERS = {"leader": 4, "notify": 4, "games": 3, "accounts": 2, "tables": 1, "attendance": 0}
"""A subpackage of ``app/services`` may import one of a lower number only (or itself); ``leader``
and ``notify`` are both on top and never import each other."""

SERVICE_BASE = {"context", "errors", "table_locks"}
"""Modules at the root of ``app/services`` that every subpackage may use."""


def imports_of(path: Path) -> set[str]:
    """The dotted names ``path`` imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def modules(under: str) -> dict[str, set[str]]:
    """``{dotted module name: its imports}`` for every ``.py`` under ``app/<under>``."""
    result = {}
    for path in sorted((APP / under).rglob("*.py")):
        dotted = ".".join(("app", *path.relative_to(APP).with_suffix("").parts))
        result[dotted] = imports_of(path)
    return result


def service_part(name: str) -> str | None:
    """``games`` for ``app.services.games.pipeline``; None outside ``app.services``."""
    parts = name.split(".")
    if parts[:2] != ["app", "services"] or len(parts) < 3:
        return None
    return parts[2]


def test_every_services_module_is_in_a_known_subpackage_or_the_shared_base():
    unknown = {name for name in modules("services")
               if service_part(name) not in {*SERVICE_LAYERS, *SERVICE_BASE, "__init__"}}
    assert unknown == set()


def test_service_subpackages_import_only_lower_ones():
    wrong = []
    for name, imported in modules("services").items():
        own = service_part(name)
        if own not in SERVICE_LAYERS:
            continue
        for target in imported:
            other = service_part(target)
            if other is None or other == own or other in SERVICE_BASE or other not in SERVICE_LAYERS:
                continue
            if SERVICE_LAYERS[other] >= SERVICE_LAYERS[own]:
                wrong.append(f"{name} imports {target}")
    assert wrong == []


def test_the_layers_below_never_import_the_ones_above():
    above = {
        "services": ("app.api", "app.realtime", "app.main"),
        "db": ("app.api", "app.realtime", "app.services", "app.main"),
        "rulesets": ("app.api", "app.realtime", "app.services", "app.db", "app.fanout", "app.bots", "app.main"),
        "bots": ("app.api", "app.realtime", "app.services", "app.db", "app.main"),
    }
    wrong = [f"{name} imports {target}"
             for under, forbidden in above.items()
             for name, imported in modules(under).items()
             for target in imported
             if any(target == prefix or target.startswith(prefix + ".") for prefix in forbidden)]
    assert wrong == []


def test_the_checker_sees_a_late_import_inside_a_function(tmp_path):
    module = tmp_path / "late.py"
    module.write_text("def f():\n    from app.services.games import pipeline\n    return pipeline\n")
    assert "app.services.games.pipeline" in imports_of(module)
