"""Two rule versions side by side on one log: where they first disagree, how the end differs.

Versions disagree at an event when one finds a rule broken that the other does not, or
when the event leaves the game in a different position by the game's own metrics
(Grace, altars, health...), which is what a designer means by "the rule change mattered
here".
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from events.base import Event
from projections.read.audit import Findings, Tally, tally
from projections.read.replay import replay
from rulesets.protocol import Outcome, Violation
from rulesets.registry import Rules


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    """The first event where the two versions part ways, and how."""

    seq: int
    event_type: str
    only_a: tuple[Violation, ...]
    only_b: tuple[Violation, ...]
    metrics: dict[str, tuple[float, float]]
    """Metric name -> (value under a, value under b), for those that differ."""
    outcomes: tuple[str, str] | None = None
    """How the game stands under a and under b after this event, when that differs
    (one version ends the game here and the other does not, or names another winner)."""


class End(msgspec.Struct, frozen=True, kw_only=True):
    """Where a version ends the game: the first event after which its rules declare an outcome."""

    seq: int
    turn: int
    why: str


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """The result of replaying one log under two versions."""

    a: str
    b: str
    events: int
    first: Divergence | None
    outcome_a: Outcome | None
    outcome_b: Outcome | None
    violations_a: int
    """Rule violations (errors) under a, counted as the audit counts them (`tally_a`)."""
    violations_b: int
    tally_a: Tally
    """The findings under a, in the audit's vocabulary and by its counting: the violations of
    retracted events dropped, the table's rulings counted as rulings (`projections.read.audit.tally`)."""
    tally_b: Tally
    end_a: End | None = None
    end_b: End | None = None
    changed: tuple[str, ...] = ()
    """Rule ids the changelogs say changed between the two versions: a disagreement under one
    of these is the change at work; under another, a consequence of it."""

    @property
    def ends_differ(self) -> bool:
        """Whether the versions end the game at different events (or one does not end it)."""
        key = lambda e: None if e is None else e.seq  # noqa: E731
        return key(self.end_a) != key(self.end_b)

    @property
    def outcome_changes(self) -> bool:
        """Whether the winner (or draw) differs between the versions."""
        a, b = self.outcome_a, self.outcome_b
        key = lambda o: None if o is None else (o.winner, o.draw)  # noqa: E731
        return key(a) != key(b)


def compare(events: Sequence[Event], a: Rules, b: Rules) -> Comparison:
    """Replay the same events under `a` and `b` in lock step."""
    first: Divergence | None = None
    findings = Findings(), Findings()
    ends: list[End | None] = [None, None]
    state_a = state_b = None
    for step_a, step_b in zip(replay(events, a), replay(events, b), strict=True):
        state_a, state_b = step_a.state, step_b.state
        findings[0].add(step_a)
        findings[1].add(step_b)
        for i, (rules, state) in enumerate(((a, state_a), (b, state_b))):
            if ends[i] is None and (ended := rules.ruleset.outcome(rules.params, state)) is not None:
                ends[i] = End(seq=step_a.event.seq, turn=rules.ruleset.progress(rules.params, state).turn,
                              why=f"{ended.reason} ({ended.rule})")
        if first is None:
            first = _divergence(a, b, step_a, step_b)
    tallies = tally(findings[0].violations()), tally(findings[1].violations())
    return Comparison(
        a=a.spec, b=b.spec, events=len(events), first=first,
        outcome_a=a.ruleset.outcome(a.params, state_a) if state_a is not None else None,
        outcome_b=b.ruleset.outcome(b.params, state_b) if state_b is not None else None,
        violations_a=tallies[0].violations, violations_b=tallies[1].violations, end_a=ends[0], end_b=ends[1],
        changed=changed_rules(a, b), tally_a=tallies[0], tally_b=tallies[1],
    )


def changed_rules(a: Rules, b: Rules) -> tuple[str, ...]:
    """The rule ids the changelogs of the versions between `a` and `b` name (both built-in
    versions of one game; a variant counts as the version it extends)."""
    order = list(a.ruleset.versions)
    if a.ruleset.name != b.ruleset.name or a.base not in order or b.base not in order:
        return ()
    low, high = sorted((order.index(a.base), order.index(b.base)))
    found: dict[str, None] = {}
    for version in order[low + 1 : high + 1]:
        for change in a.ruleset.versions[version].changelog:
            found.update(dict.fromkeys(change.rules))
    return tuple(found)


def _divergence(a: Rules, b: Rules, step_a: object, step_b: object) -> Divergence | None:
    key = lambda v: (v.rule, v.message)  # noqa: E731
    va = {key(v): v for v in step_a.violations if v.rule != "core/rules-changed"}  # type: ignore[attr-defined]
    vb = {key(v): v for v in step_b.violations if v.rule != "core/rules-changed"}  # type: ignore[attr-defined]
    ma = a.ruleset.metrics(a.params, step_a.state)  # type: ignore[attr-defined]
    mb = b.ruleset.metrics(b.params, step_b.state)  # type: ignore[attr-defined]
    differing = {name: (ma[name], mb.get(name, float("nan"))) for name in ma if ma[name] != mb.get(name)}
    only_a = tuple(v for k, v in va.items() if k not in vb)
    only_b = tuple(v for k, v in vb.items() if k not in va)
    oa = _standing(a.ruleset.outcome(a.params, step_a.state))  # type: ignore[attr-defined]
    ob = _standing(b.ruleset.outcome(b.params, step_b.state))  # type: ignore[attr-defined]
    outcomes = (oa, ob) if oa != ob else None
    if not (only_a or only_b or differing or outcomes):
        return None
    event = step_a.event  # type: ignore[attr-defined]
    return Divergence(seq=event.seq, event_type=type(event).__name__, only_a=only_a, only_b=only_b,
                      metrics=differing, outcomes=outcomes)


def _standing(outcome: Outcome | None) -> str:
    """The game's standing in words: going on, a draw, or who won and why."""
    if outcome is None:
        return "the game goes on"
    return "a draw" if outcome.draw else f"{outcome.winner} won ({outcome.reason})"
