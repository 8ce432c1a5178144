"""Pig keeps tabletape's contract, and its sample log breaks only the rule planted in it.

Run `pytest` here once the package is installed (`pip install -e .`).
"""

from __future__ import annotations

from pathlib import Path

from projections.authoring.contract import check_game, read_log
from projections.read.audit import audit
from rulesets import registry

SAMPLE = Path(__file__).with_name("sample.jsonl")
PLANTED = [(8, "pig/turn.order")]
"""sample.jsonl, line 8: red rolls though it is blue's turn, the one mistake planted in it
(JSON lines hold no comments, so it is named here). Fix or remove it and this becomes []."""


def sample(rules: registry.Rules) -> list:
    return read_log(rules, SAMPLE.read_bytes(), where=str(SAMPLE))


def test_the_game_passes_every_contract_check_its_parts_call_for() -> None:
    rules = registry.resolve("pig")
    report = check_game(rules, [sample(rules)])
    assert report.ok, "\n".join(report.lines())


def test_the_sample_log_breaks_only_the_planted_rule() -> None:
    rules = registry.resolve("pig")
    report = audit(sample(rules), rules)
    assert [(v.seq, v.rule) for v in report.violations] == PLANTED
    assert report.result.agrees, report.result.message
