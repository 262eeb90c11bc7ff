"""Heroes: an unrevealed tactic choice stored as the ``tactic`` move's wire form.

A Heroes game waiting for the second side's tactic card kept the first side's choice in
``state.pending.choices`` as a slash-encoded string, ``"hidden-tactic/<seat>/<card>/<ore>/<mana>/
<food>/<serf>/<warrior>/<hero>/<mercenary>"`` (tokens written before the Mercenary Nomads have no
last number: 0).  The rules now keep ``{"type": "tactic", "card": ..., "ore": ..., ...}`` there
(``app/rulesets/heroes/state.py``, ``TacticChoice``), so this data migration rewrites the stored
states that hold an old token; nothing else of any state changes.  Only games stopped during a
tactic choice have one, and the move log is untouched (moves keep their wire form).

The conversion is written out here, not imported from the rules, so the migration stays as it is
whatever the rules become.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

TOKEN_PREFIX = "hidden-tactic/"
CHOICE_FIELDS = ("ore", "mana", "food", "serf", "warrior", "hero", "mercenary")
"""The numbers of a token after ``hidden-tactic/<seat>/<card>``, in order."""

tables = sa.table("tables", sa.column("id", sa.Integer), sa.column("ruleset", sa.String),
                  sa.column("state", sa.JSON))


def choice_of(token: str) -> dict[str, Any]:
    """``"hidden-tactic/0/charge/0/6/0/0/0/0/0"`` -> the ``tactic`` move's wire form."""
    _, _, card, *values = token.split("/")
    numbers = [int(value) for value in values] + [0] * (len(CHOICE_FIELDS) - len(values))
    return {"type": "tactic", "card": card, **dict(zip(CHOICE_FIELDS, numbers))}


def token_of(seat: str, choice: dict[str, Any]) -> str:
    """The inverse of :func:`choice_of` (for the downgrade)."""
    return "/".join(["hidden-tactic", seat, choice["card"], *(str(choice.get(name, 0)) for name in CHOICE_FIELDS)])


def upgraded(state: Any) -> Any:
    """``state`` with every old token of ``pending.choices`` in the new form, or ``None`` when it
    holds none (then it is left as it is)."""
    choices = state.get("pending", {}).get("choices") if isinstance(state, dict) and state.get("pending") else None
    if not choices or not any(isinstance(choice, str) for choice in choices.values()):
        return None
    new = {seat: choice_of(choice) if isinstance(choice, str) else choice for seat, choice in choices.items()}
    return {**state, "pending": {**state["pending"], "choices": new}}


def downgraded(state: Any) -> Any:
    """``state`` with its choices as old tokens again, or ``None`` when it holds none."""
    choices = state.get("pending", {}).get("choices") if isinstance(state, dict) and state.get("pending") else None
    if not choices or not any(isinstance(choice, dict) for choice in choices.values()):
        return None
    old = {seat: token_of(seat, choice) if isinstance(choice, dict) else choice for seat, choice in choices.items()}
    return {**state, "pending": {**state["pending"], "choices": old}}


def rewrite(convert) -> None:
    """Apply ``convert`` to every stored Heroes state that may hold a tactic choice."""
    connection = op.get_bind()
    # Only a state in a tactic choice holds "choices"; the text test keeps the scan to those rows.
    rows = connection.execute(sa.select(tables.c.id, tables.c.state).where(
        tables.c.ruleset == "heroes", sa.cast(tables.c.state, sa.Text).like('%"choices"%'))).all()
    for table_id, state in rows:
        new = convert(state)
        if new is not None:
            connection.execute(tables.update().where(tables.c.id == table_id).values(state=new))


def upgrade() -> None:
    rewrite(upgraded)


def downgrade() -> None:
    rewrite(downgraded)
