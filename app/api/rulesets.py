"""``GET /api/rulesets``: the games the lobby offers."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import Ctx
from app.api.schemas import RulesetOut

router = APIRouter(prefix="/api/rulesets", tags=["rulesets"])


@router.get("", response_model=list[RulesetOut])
async def list_rulesets(ctx: Ctx) -> list[dict]:
    """``[{name, title, min_players, max_players, summary, minutes, live_move_seconds, options_schema}]``
    of every listed ruleset (``minutes``: ``[shortest, longest]`` typical length, or ``null``;
    ``live_move_seconds``: the time per move the lobby proposes for a live table)."""
    return [
        {
            "name": ruleset.name,
            "title": ruleset.title,
            "min_players": ruleset.min_players,
            "max_players": ruleset.max_players,
            "summary": ruleset.summary,
            "minutes": list(ruleset.minutes) if ruleset.minutes else None,
            "live_move_seconds": ruleset.live_move_seconds,
            "options_schema": ruleset.Options.model_json_schema(),
        }
        for ruleset in ctx.registry.all()
        if ruleset.listed
    ]
