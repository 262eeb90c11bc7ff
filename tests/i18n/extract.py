"""Finding the user-facing strings of the server's code (``app/``, the rulesets aside: each ships
its own catalog, checked by the conformance kit): the msgids of ``AppError`` messages and of
``translate``/``ntranslate`` calls, and the calls whose message is no literal (an f-string or a
value built elsewhere), which no catalog can hold."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"
MESSAGE_ARG = {"AppError": 1, "translate": 1, "IllegalMove": 0}
"""Functions whose message is a msgid, and the position of that argument."""


@dataclass
class Found:
    msgids: dict[str, str] = field(default_factory=dict)  # msgid -> where first seen
    plurals: dict[str, str] = field(default_factory=dict)  # singular msgid -> its plural
    not_literal: list[str] = field(default_factory=list)  # "path:line: source"


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _literal(message: ast.expr, where: str, found: Found, call: ast.Call) -> None:
    """Note a literal msgid (or both of ``a if c else b``); anything else is a message built in code."""
    if isinstance(message, ast.IfExp):
        _literal(message.body, where, found, call)
        _literal(message.orelse, where, found, call)
    elif isinstance(message, ast.Constant) and isinstance(message.value, str):
        found.msgids.setdefault(message.value, where)
    else:
        found.not_literal.append(f"{where}: {ast.unparse(call)[:120]}")


def server_strings(root: Path = APP, skip: tuple[str, ...] = ("rulesets",)) -> Found:
    """Every msgid of the server's messages under ``root`` (module docstring)."""
    found = Found()
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if relative.parts[0] in skip:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            where = f"{relative}:{node.lineno}"
            if name == "ntranslate" and len(node.args) >= 3:
                singular, plural = node.args[1], node.args[2]
                if isinstance(singular, ast.Constant) and isinstance(plural, ast.Constant):
                    found.plurals.setdefault(singular.value, plural.value)
                    found.msgids.setdefault(singular.value, where)
                else:
                    found.not_literal.append(f"{where}: {ast.unparse(node)[:120]}")
            elif name == "N_" and node.args:
                _literal(node.args[0], where, found, node)
            elif name in MESSAGE_ARG and name != "IllegalMove" and len(node.args) > MESSAGE_ARG[name]:
                message = node.args[MESSAGE_ARG[name]]
                if isinstance(message, ast.Call) and _name(message.func) in ("translate", "ntranslate"):
                    continue  # said in words already
                if isinstance(message, (ast.Name, ast.Attribute, ast.BoolOp, ast.Call)):
                    for part in (message.values if isinstance(message, ast.BoolOp) else []):
                        if isinstance(part, ast.Constant):
                            _literal(part, where, found, node)
                    continue  # a value made elsewhere (a refusal's reason, marked with N_ where written)
                _literal(message, where, found, node)
    return found
