"""The contract every ruleset passes (STYLE.md, "How that looks in tabletape", point 5).

`tests/test_contract.py` runs these for every game and every version; a new game gets
them by being registered.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from events.shared import MatchEnded, MatchStarted
from projections.audit import audit
from projections.replay import replay
from projections.simulate import play
from projections.timeline import Timeline
from rulesets.registry import Rules

PURE_MODULES = ("events", "state", "params", "rules", "moves", "view", "board", "table")
"""Modules of a game that hold rules; data loaders (heroes, maps) read files at import only."""
FORBIDDEN_IMPORTS = frozenset({"random", "time", "os", "io", "pathlib", "socket", "subprocess", "datetime", "secrets", "uuid"})


def started(rules: Rules, seed: int = 1) -> MatchStarted:
    """A valid line 0 for the game's example seating."""
    ruleset = rules.ruleset
    return MatchStarted(seq=0, match_id=f"contract-{seed}", ruleset=ruleset.name, version=rules.version,
                        seats=dict(ruleset.example_seats), fingerprint=ruleset.fingerprint)


def check_setup_is_valid(rules: Rules) -> None:
    """The example seating is accepted and setup gives a state with legal moves or a chance step."""
    ruleset = rules.ruleset
    line0 = started(rules)
    assert ruleset.validate_start(rules.params, line0) == []
    state = ruleset.setup(rules.params, line0)
    assert ruleset.chance(rules.params, state) or list(ruleset.legal(rules.params, state))


def play_clean(rules: Rules, bot: str, seed: int) -> list:
    """A seeded bot game (the simulator's own log)."""
    return play(rules, rules.ruleset.example_seats, seed=seed, bot=bot)


def check_bot_game_is_clean(rules: Rules, bot: str, seed: int) -> list:
    """A seeded bot game finishes with a declared result and audits clean."""
    events = play(rules, rules.ruleset.example_seats, seed=seed, bot=bot)
    assert isinstance(events[-1], MatchEnded), f"{bot} game with seed {seed} did not finish in {len(events)} events"
    report = audit(events, rules)
    assert report.errors == (), report.errors[:3]
    assert report.result.agrees, report.result.message
    return events


def check_replay_is_deterministic(rules: Rules, seed: int) -> None:
    """The same seed gives the same log, byte for byte."""
    one = play(rules, rules.ruleset.example_seats, seed=seed, bot="random")
    two = play(rules, rules.ruleset.example_seats, seed=seed, bot="random")
    assert msgspec.json.encode(one) == msgspec.json.encode(two)


def check_timeline_matches_replay(rules: Rules, events: list, every: int = 16) -> None:
    """A snapshot plus the tail gives exactly the state of a full replay, at any seq."""
    full = [msgspec.json.encode(step.state) for step in replay(events, rules, audit=False)]
    timeline = Timeline(events, rules, every=every)
    rng = random.Random(0)
    for seq in {0, len(events) - 1, *rng.sample(range(len(events)), min(40, len(events)))}:
        assert msgspec.json.encode(timeline.state_at(seq).state) == full[seq], seq


def check_apply_does_not_mutate(rules: Rules, events: list) -> None:
    """Reducers are pure: the input state is the same after apply."""
    ruleset = rules.ruleset
    state = ruleset.setup(rules.params, events[0])
    for event in events[1:]:
        before = msgspec.json.encode(state)
        ruleset.check(rules.params, state, event)
        after_state = ruleset.apply(rules.params, state, event)
        assert msgspec.json.encode(state) == before, f"apply mutated its input at seq {event.seq}"
        state = after_state


def check_rules_modules_are_pure(package_dir: Path) -> None:
    """No I/O, clock or randomness imported by the rules modules, and no open()."""
    for name in PURE_MODULES:
        path = package_dir / f"{name}.py"
        if not path.exists():
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                raise AssertionError(f"{path}: calls open()")
            else:
                continue
            assert not roots & FORBIDDEN_IMPORTS, f"{path}: imports {roots & FORBIDDEN_IMPORTS}"


def check_events_keep_the_envelope(rules: Rules) -> None:
    """No game event reuses an envelope field name (seq, at, by, prev) for its own data."""
    from events.base import Event

    envelope = {name: Event.__annotations__[name] for name in ("seq", "at", "by", "prev")}
    for event_type in rules.ruleset.events:
        hints = {}
        for klass in reversed(event_type.__mro__):
            hints.update(getattr(klass, "__annotations__", {}))
        for name, annotation in envelope.items():
            assert hints.get(name) == annotation, f"{event_type.__name__}.{name} shadows the envelope field"


def check_states_survive_a_snapshot(rules: Rules, events: list) -> None:
    """States round-trip through msgpack, so the warehouse can resume a match from a snapshot."""
    for step in replay(events, rules, audit=False):
        blob = msgspec.msgpack.encode(step.state)
        assert msgspec.msgpack.decode(blob, type=type(step.state)) == step.state, step.event.seq


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

def check_legal_is_what_check_accepts(rules: Rules, seed: int, *, positions: int = 40) -> int:
    """At seeded positions of a random and a heuristic game, `legal` is exactly (same events,
    same order) the candidates `check` finds no error or warning in.

    `legal` may construct its moves directly rather than check every candidate; this is
    what holds such a construction to the rules. Returns how many positions were compared.
    """
    ruleset = rules.ruleset
    assert ruleset.candidates is not None, f"{ruleset.name} exposes no candidates"
    compared = 0
    for bot in ("random", "heuristic"):
        events = play(rules, ruleset.example_seats, seed=seed, bot=bot)
        states = [step.state for step in replay(events[:-1] if isinstance(events[-1], MatchEnded) else events, rules, audit=False)]
        decisions = [s for s in states if ruleset.chance(rules.params, s) is None]
        for state in random.Random(seed).sample(decisions, min(positions, len(decisions))):
            accepted = [e for e in ruleset.candidates(rules.params, state)
                        if not any(v.severity != "info" for v in ruleset.check(rules.params, state, e))]
            _assert_legal_is(ruleset, rules.params, state, accepted, f"{bot} game, seed {seed}")
            compared += 1
    return compared


def _assert_legal_is(ruleset: Any, params: Any, state: Any, accepted: list, where: str) -> None:
    """`legal` is the accepted candidates in order, both ways a bot reads it: iterated, and
    (a lazy sequence, `rulesets.legal`) by its length and item by item from a fresh answer,
    as a random bot's `options[rng.randrange(len(options))]` does; and each item is found in it."""
    assert list(ruleset.legal(params, state)) == accepted, f"{where}: legal differs from the accepted candidates"
    fresh = ruleset.legal(params, state)
    if isinstance(fresh, Sequence):
        assert len(fresh) == len(accepted), f"{where}: legal's length is not its number of events"
        assert [fresh[i] for i in range(len(fresh))] == accepted, f"{where}: legal's items by index differ from its events in order"
        assert all(event in fresh for event in accepted), f"{where}: an event legal offers is not found in it"


def check_chance_outcomes_are_accepted(rules: Rules, seed: int, *, positions: int = 40) -> int:
    """At seeded chance steps of a random and a heuristic game, every outcome `chance` offers
    is one `check` finds no error or warning in: the simulator draws them without checking
    (`projections.simulate.play`). Returns how many outcomes were checked."""
    ruleset = rules.ruleset
    checked = 0
    for bot in ("random", "heuristic"):
        events = play(rules, ruleset.example_seats, seed=seed, bot=bot)
        states = [step.state for step in replay(events[:-1] if isinstance(events[-1], MatchEnded) else events, rules, audit=False)]
        steps = [(s, outcomes) for s in states if (outcomes := ruleset.chance(rules.params, s)) is not None]
        for state, outcomes in random.Random(seed).sample(steps, min(positions, len(steps))):
            for event, _ in outcomes:
                problems = [v for v in ruleset.check(rules.params, state, event) if v.severity != "info"]
                assert not problems, f"{bot} game, seed {seed}: the chance outcome {event!r} is refused: {problems[0].rule}"
                checked += 1
    return checked


def check_attempts_are_refused(rules: Rules, seed: int, *, positions: int = 40) -> int:
    """At seeded positions of a heuristic game, every mistake the ruleset offers the recorder
    (`attempts`) is one the rules refuse: one they accept belongs in `candidates`. Returns
    how many attempts were checked."""
    ruleset = rules.ruleset
    if ruleset.attempts is None:
        return 0
    events = play(rules, ruleset.example_seats, seed=seed, bot="heuristic")
    states = [step.state for step in replay(events[:-1] if isinstance(events[-1], MatchEnded) else events, rules, audit=False)]
    checked = 0
    for state in random.Random(seed).sample(states, min(positions, len(states))):
        for event in ruleset.attempts(rules.params, state):
            problems = [v for v in ruleset.check(rules.params, state, event) if v.severity != "info"]
            assert problems, f"seed {seed}: the rules accept the attempt {event!r}"
            checked += 1
    return checked


def check_legal_is_what_check_accepts_along(rules: Rules, events: list) -> int:
    """At every decision of a recorded game (table mistakes included), `legal` is exactly the
    candidates `check` finds no error or warning in. Returns how many positions were compared."""
    ruleset = rules.ruleset
    assert ruleset.candidates is not None, f"{ruleset.name} exposes no candidates"
    compared = 0
    for step in replay(events[:-1] if isinstance(events[-1], MatchEnded) else events, rules, audit=False):
        state = step.state
        if ruleset.chance(rules.params, state) is not None:
            continue
        accepted = [e for e in ruleset.candidates(rules.params, state)
                    if not any(v.severity != "info" for v in ruleset.check(rules.params, state, e))]
        _assert_legal_is(ruleset, rules.params, state, accepted, f"after seq {step.event.seq}")
        compared += 1
    return compared


CASCADE_SAMPLE = 40
"""Mutations of one bot game per version in the default run (`make bench-cascade` runs 1,000 per game)."""


def check_one_mistake_gives_one_finding(rules: Rules, events: list, *, count: int = CASCADE_SAMPLE) -> None:
    """Injected table mistakes (drop, duplicate, swap, impossible die, illegal move, out of turn,
    skipped roll) cost the rest of the audit at most one finding at p95 and none at the median."""
    from statistics import median

    from projections.mutations import Subject, cascades

    found = cascades([Subject(events, rules)], count, seed=3)
    assert found, "no mutation could be made of this log"
    follow = sorted(c.follow_on for c in found)
    p95 = follow[min(len(follow) - 1, int(0.95 * len(follow)))]
    worst = max(found, key=lambda c: c.follow_on)
    assert median(follow) == 0 and p95 <= 1, (
        f"median {median(follow)}, p95 {p95}; worst: {worst.what} -> {worst.follow_rules[:6]}")


RECALL_SAMPLE = 10
"""Pairs of independent mistakes in one bot game per version in the default run (`make
bench-cascade` runs 1,000 per game over the golden and demo logs)."""


def check_independent_mistakes_are_each_named(rules: Rules, events: list, *, count: int = RECALL_SAMPLE) -> None:
    """Two independent table mistakes in one log (8 to 48 events apart, about other pieces, each
    named when alone): resynchronising after the first never takes the second for a consequence
    of it, so the audit names both."""
    from projections.mutations import Subject, recalls

    found = recalls([Subject(events, rules)], count, seed=3)
    assert found, "no pair of independent mistakes could be made of this log"
    missed = [r.what[i] for r in found for i, named in enumerate(r.named) if not named]
    assert not missed, f"{len(missed)} of {2 * len(found)} mistakes not named: {missed[:3]}"
