"""The audit: every rule a log broke, and whether the declared result is the rules' result.

Violations of events the table later retracted are dropped (the table undid them), and
a `Ruled` that names a rule and an event turns that violation into a recorded ruling.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from events.base import Event
from events.shared import MatchEnded, Ruled
from projections.read.replay import Step, replay
from rulesets.protocol import Outcome, Violation, passages
from rulesets.registry import Rules


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """The table's declared result set against the rules' one."""

    declared: MatchEnded | None
    computed: Outcome | None
    agrees: bool
    message: str


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    """Findings counted in the one vocabulary every page and command uses: rule violations
    (errors), warnings, and rulings or infos (which make nothing illegal). A designer's
    notes are not findings and are counted apart, as notes."""

    violations: int
    warnings: int
    infos: int

    def text(self) -> str:
        """`2 rule violations, 0 warnings, 1 ruling or info`."""
        def n(count: int, one: str, many: str) -> str:
            return f"{count} {one if count == 1 else many}"
        return (f"{n(self.violations, 'rule violation', 'rule violations')}, {n(self.warnings, 'warning', 'warnings')}, "
                f"{n(self.infos, 'ruling or info', 'rulings or infos')}")


def tally(violations: Iterable[Violation]) -> Tally:
    """Count findings by severity (the table's rulings are infos)."""
    found = [v.severity for v in violations]
    return Tally(violations=found.count("error"), warnings=found.count("warning"), infos=found.count("info"))


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    """What a designer reads after a playtest: broken rules by seq, and the result check."""

    rules: str
    """`game@version` the log was audited under."""
    events: int
    violations: tuple[Violation, ...]
    result: Result
    retracted: tuple[int, ...] = ()
    passages: dict[str, str] = {}
    """Where the rules text says each rule the findings and the result name:
    `{"mortalgate/death.slain": 'mortalgate.txt, "Death"'}` (rules the game declares)."""

    @property
    def errors(self) -> tuple[Violation, ...]:
        """Violations that are errors (not warnings, infos or table rulings)."""
        return tuple(v for v in self.violations if v.severity == "error")

    @property
    def tally(self) -> Tally:
        """The findings counted: rule violations, warnings, rulings or infos."""
        return tally(self.violations)

    @property
    def clean(self) -> bool:
        """No rule broken and the declared result (if any) is the rules' result."""
        return not self.errors and self.result.agrees


class Found(msgspec.Struct, frozen=True, kw_only=True):
    """`Findings` as data: what a kept fold carries so an audit can go on from its last line."""

    violations: dict[int, tuple[Violation, ...]]
    declared: dict[int, MatchEnded]
    rulings: dict[int, Ruled]
    retracted: tuple[int, ...]


class Findings:
    """The audit's account of a fold, fed one Step at a time: the violations of events the table
    later retracted are dropped, and the table's rulings are applied at the end. Every count of a
    log's findings (the audit, the comparison of two versions) goes through it, so they agree."""

    __slots__ = ("_declared", "_found", "_rulings", "retracted")

    def __init__(self, found: Found | None = None) -> None:
        self._found: dict[int, tuple[Violation, ...]] = dict(found.violations) if found else {}
        self._declared: dict[int, MatchEnded] = dict(found.declared) if found else {}
        self._rulings: dict[int, Ruled] = dict(found.rulings) if found else {}
        self.retracted: list[int] = list(found.retracted) if found else []
        # The seqs the table's Retracteds voided, in order.

    def found(self) -> Found:
        """Everything taken in so far, as data (a kept fold stores it)."""
        return Found(violations=dict(self._found), declared=dict(self._declared), rulings=dict(self._rulings),
                     retracted=tuple(self.retracted))

    @property
    def standing(self) -> dict[int, tuple[Violation, ...]]:
        """What each event in force broke when it was folded, by seq (no rulings applied)."""
        return self._found

    def add(self, step: Step) -> None:
        """Take in one step of the fold."""
        event = step.event
        if step.voided is not None:
            self.retracted.append(step.voided)
            for table in (self._found, self._declared, self._rulings):
                table.pop(step.voided, None)
        if step.violations:
            self._found[event.seq] = step.violations
        if isinstance(event, MatchEnded):
            self._declared[event.seq] = event
        elif isinstance(event, Ruled):
            self._rulings[event.seq] = event

    def violations(self) -> tuple[Violation, ...]:
        """The findings in force, by seq, the table's rulings applied."""
        return _apply_rulings(self._found, self._rulings.values())

    def declared(self) -> MatchEnded | None:
        """The last result the table declared that it did not retract."""
        return self._declared[max(self._declared)] if self._declared else None


def audit(events: Iterable[Event], rules: Rules, *, resync: bool = True) -> AuditReport:
    """Audit a whole log under `rules` (its own version, or any other for a re-audit);
    `resync=False` follows the log literally after a mistake (a baseline to measure against)."""
    findings = Findings()
    state = None
    count = 0
    for step in replay(events, rules, resync=resync):
        count += 1
        state = step.state
        findings.add(step)
    return report(rules, findings, state, count)


def report(rules: Rules, findings: Findings, state: Any, events: int) -> AuditReport:
    """The audit of a fold that took in `events` events and ended in `state` (None: no events)."""
    computed = outcome_of(rules, state, findings.declared()) if state is not None else None
    violations = findings.violations()
    named = [v.rule for v in violations] + ([computed.rule] if computed is not None else [])
    return AuditReport(rules=rules.spec, events=events, violations=violations,
                       result=judge(findings.declared(), computed), retracted=tuple(findings.retracted),
                       passages=passages([rules.ruleset.rule_ids], named))


def _apply_rulings(found: dict[int, tuple[Violation, ...]], rulings: Iterable[Ruled]) -> tuple[Violation, ...]:
    """A table ruling on (rule, seq) marks that violation as ruled (severity info)."""
    ruled = {(r.applies_to, r.rule): r for r in rulings if r.applies_to is not None}
    out = []
    for seq in sorted(found):
        for violation in found[seq]:
            ruling = ruled.get((seq, violation.rule))
            if ruling is not None:
                violation = msgspec.structs.replace(violation, severity="info", message=f"ruled by the table (seq {ruling.seq}: {ruling.decision}): {violation.message}")
            out.append(violation)
    return tuple(out)


TABLE_WORD = "core/declared"
"""The rule id of an outcome a game without a victory condition takes from the table."""


def outcome_of(rules: Rules, state: Any, declared: MatchEnded | None) -> Outcome | None:
    """How the match ended: by the rules' own outcome; in a game that knows no victory
    condition (no `outcome`, such as a log-only game), by the table's declared result, so
    its matches count in win rates and lengths instead of never finishing."""
    ruleset = rules.ruleset
    if ruleset.gives("outcome") or declared is None:
        return ruleset.outcome(rules.params, state)
    return Outcome(winner=declared.winner, draw=declared.draw, reason=declared.reason or "declared by the table", rule=TABLE_WORD)


def judge(declared: MatchEnded | None, computed: Outcome | None) -> Result:
    """Does the table's declared result match the rules' outcome?"""
    if computed is not None and computed.rule == TABLE_WORD:
        return Result(declared=declared, computed=computed, agrees=True,
                      message=f"the table declared {_declared(computed)} (the game has no victory condition to check it by)")
    if declared is None and computed is None:
        return Result(declared=None, computed=None, agrees=True, message="the game is not over and no result was declared")
    if declared is None:
        assert computed is not None
        return Result(declared=None, computed=computed, agrees=True, message=f"no result declared; by the rules {_said(computed)}")
    if computed is None:
        return Result(declared=declared, computed=None, agrees=False,
                      message=f"the table declared {_declared(declared)}, but by the rules the game is not over")
    agrees = declared.draw == computed.draw and declared.winner == computed.winner
    if agrees:
        return Result(declared=declared, computed=computed, agrees=True, message=f"declared result matches the rules: {_said(computed)}")
    return Result(declared=declared, computed=computed, agrees=False,
                  message=f"the table declared {_declared(declared)}, but by the rules {_said(computed)} ({computed.rule})")


def _said(outcome: Outcome) -> str:
    return "it is a draw" if outcome.draw else f"{outcome.winner} won: {outcome.reason}"


def _declared(ended: MatchEnded | Outcome) -> str:
    return "a draw" if ended.draw else f"{ended.winner} the winner" if ended.winner else "the game abandoned"
