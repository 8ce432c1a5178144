"""The contract every ruleset passes (STYLE.md, "How that looks in tabletape", point 5).

The checks live in the installed package (`projections.authoring.contract`), so a designer's game
outside tabletape runs them too (`tabletape check-game`); `tests/test_contract.py` runs them
for every built-in game and version. Recording by taps is checked here, beside the tap
helpers the table tests share.
"""

from __future__ import annotations

from projections.authoring.contract import *  # noqa: F403
from projections.authoring.contract import Rules


def check_bot_game_is_recordable_by_taps(rules: Rules, events: list) -> dict[str, int]:
    """Every event of a clean game can be recorded on the Record page by taps alone (forced,
    board, button, dice or the result), and every board tap is on something the acting
    seat's own view draws."""
    from tests.tap_support import log_steps, undrawn_taps

    kinds: dict[str, int] = {}
    for step in log_steps(rules, events):
        assert step.plan.kind != "not-legal", f"seq {step.event.seq} {type(step.event).__name__} cannot be recorded by taps"
        if step.plan.kind == "board":
            assert not undrawn_taps(rules, step), f"seq {step.event.seq}: {undrawn_taps(rules, step)} not drawn by the view"
        kinds[step.plan.kind] = kinds.get(step.plan.kind, 0) + 1
    return kinds
