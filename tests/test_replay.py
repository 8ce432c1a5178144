"""The fold itself: undo depth, and what a stream of steps carries."""

from __future__ import annotations

from pathlib import Path

from events.base import Event
from events.codec import decode_log
from events.shared import Retracted
from projections.read.replay import UNDO_WINDOW, replay
from rulesets import registry

GOLDEN = Path(__file__).parent / "mortalgate" / "golden" / "mortalgate-2.5.jsonl"


def _golden() -> tuple[list[Event], registry.Rules]:
    lines = GOLDEN.read_bytes().splitlines()
    events = list(decode_log(lines, registry.game("mortalgate").codec))
    return events, registry.resolve("mortalgate@2.5")


def test_a_full_window_of_undos_walks_back_right_after_the_stack_is_cut() -> None:
    events, rules = _golden()
    depths = [step.undo.depth if step.undo else 0 for step in replay(events, rules)]
    cut = next(i for i in range(1, len(depths)) if depths[i] < depths[i - 1])  # the stack is shortest here
    undos = [Retracted(seq=cut + 1 + i, target_seq=cut - i) for i in range(UNDO_WINDOW)]
    steps = list(replay([*events[: cut + 1], *undos], rules))
    assert [s.voided for s in steps[cut + 1:]] == [cut - i for i in range(UNDO_WINDOW)]
    assert all(not s.violations for s in steps[cut + 1:])
    assert steps[-1].state == steps[cut - UNDO_WINDOW].state


def test_an_undo_of_an_event_already_voided_is_reported_not_guessed() -> None:
    events, rules = _golden()
    last = len(events) - 1
    undos = [Retracted(seq=last + 1, target_seq=last), Retracted(seq=last + 2, target_seq=last)]
    final = list(replay([*events, *undos], rules))[-1]
    assert [v.rule for v in final.violations] == ["core/retract.not-latest"]
    assert final.voided is None
