"""The spec's §6 move-generator positions: the complete set of legal moves for each die.

Every check of ``data/test_positions.json`` (worked out by hand in the spec; we re-derived each
set by hand from rules 19-24 before running it) is one test, checked two ways:

* ``legal_moves`` lists exactly the expected moves for that die, and
* ``apply`` accepts a move of any stone to any cell of the sketch exactly when it is expected
  (so a generator that lists too little, or a check that lets too much through, both fail).
"""

from __future__ import annotations

import pytest

from app.rulesets.base import IllegalMove
from app.rulesets.nomadi.moves import UseDie
from tests.rulesets.nomadi_fixtures import A, position, sketch_stones, spec_positions

CHECKS = [(pos, check) for pos in spec_positions() for check in pos["checks"]]


def expected_moves(pos: dict, check: dict) -> set[tuple[str, tuple[int, int]]]:
    return {(label, tuple(cell)) for label, cells in check["legal"].items() for cell in cells}


@pytest.mark.parametrize(("pos", "check"), CHECKS, ids=[f"{pos['id']}-die{check['die']}" for pos, check in CHECKS])
def test_spec_position_complete_legal_moves(pos, check):
    ruleset, state, _ = position(pos["grid"], dice=(check["die"],), chasm=pos.get("chasm_between_rows"))
    label_of = {cell: label for label, cell in sketch_stones(pos["grid"]).items()}
    listed = ruleset.legal_moves(state, A)
    assert all(move.die == check["die"] for move in listed)
    found = {(label_of[tuple(move.stone)], tuple(move.to)) for move in listed}
    assert len(found) == len(listed), "a move is listed twice"
    assert found == expected_moves(pos, check)


@pytest.mark.parametrize(("pos", "check"), CHECKS, ids=[f"{pos['id']}-die{check['die']}" for pos, check in CHECKS])
def test_spec_position_apply_accepts_exactly_the_legal_moves(pos, check):
    ruleset, state, _ = position(pos["grid"], dice=(check["die"],), chasm=pos.get("chasm_between_rows"))
    expected = expected_moves(pos, check)
    cells = [(r, c) for r in range(len(pos["grid"])) for c in range(len(pos["grid"][0]))]
    for label, origin in sketch_stones(pos["grid"]).items():
        for target in cells:
            move = UseDie(die=check["die"], stone=origin, to=target)
            if (label, target) in expected:
                after, _ = ruleset.apply(state, A, move)
                assert after["stones"][[tuple(s["cell"]) for s in state["stones"]].index(origin)]["cell"] == list(target)
            else:
                with pytest.raises(IllegalMove, match=r"^R-\d+"):
                    ruleset.apply(state, A, move)


def test_spec_positions_are_all_present():
    """§6 lists P1-P4 and P6-P9 (there is no P5) with 16 die checks between them."""
    assert [pos["id"] for pos in spec_positions()] == ["P1", "P2", "P3", "P4", "P6", "P7", "P8", "P9"]
    assert len(CHECKS) == 16
