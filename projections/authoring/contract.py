"""The contract every game passes, built in or a designer's own.

Each `check_*` function holds one promise of the Ruleset protocol (setup, seeded bot games
that finish clean, deterministic replay, snapshot plus tail equal to the full replay, pure
reducers and rules modules, `legal` equal to what `check` accepts, ...) and raises an
AssertionError saying what broke. tabletape's own tests run them for every built-in game and
version; `check_game` runs those that apply to a game's parts (`tabletape check-game`), so a
game outside tabletape is held to the same contract.
"""

from __future__ import annotations

import ast
import dataclasses
import random
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec

from events.base import Event
from events.codec import decode_drafts
from events.shared import MatchEnded, MatchStarted
from projections.corpus.simulate import play
from projections.read.audit import audit
from projections.read.replay import replay
from projections.read.timeline import Timeline
from rulesets.levels import Level, level_of
from rulesets.protocol import Bot
from rulesets.registry import Rules

PURE_MODULES = ("game", "events", "state", "params", "rules", "moves", "view", "board", "table")
"""Modules of a game that hold rules; data loaders (heroes, maps) read files at import only."""
BOTS = ("random", "heuristic")
"""The bots whose games the checks of `legal` and `chance` sample positions from: the built-in
games all have a heuristic bot; `check_game` passes the random bot and the game's own default."""
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
        assert msgspec.json.encode(timeline.state_at(seq).state) == full[seq], f"the state at seq {seq} from a snapshot differs from a full replay"


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
        if path.exists():
            check_module_is_pure(path)


def check_module_is_pure(path: Path) -> None:
    """No I/O, clock or randomness imported by one module of rules, and no open()."""
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
    envelope = {name: Event.__annotations__[name] for name in ("seq", "at", "by", "prev")}
    for event_type in rules.ruleset.events:
        hints: dict[str, Any] = {}
        for klass in reversed(event_type.__mro__):
            hints.update(getattr(klass, "__annotations__", {}))
        for name, annotation in envelope.items():
            assert hints.get(name) == annotation, f"{event_type.__name__}.{name} shadows the envelope field"


def check_states_survive_a_snapshot(rules: Rules, events: list) -> None:
    """States round-trip through msgpack, so the warehouse can resume a match from a snapshot."""
    for step in replay(events, rules, audit=False):
        blob = msgspec.msgpack.encode(step.state)
        assert msgspec.msgpack.decode(blob, type=type(step.state)) == step.state, step.event.seq


def check_legal_is_what_check_accepts(rules: Rules, seed: int, *, positions: int = 40,
                                      bots: Sequence[str] = BOTS) -> int:
    """At seeded positions of a game of each of `bots`, `legal` is exactly (same events,
    same order) the candidates `check` finds no error or warning in.

    `legal` may construct its moves directly rather than check every candidate; this is
    what holds such a construction to the rules. Returns how many positions were compared.
    """
    ruleset = rules.ruleset
    assert ruleset.candidates is not None, f"{ruleset.name} exposes no candidates"
    compared = 0
    for bot in dict.fromkeys(bots):
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


def check_chance_outcomes_are_accepted(rules: Rules, seed: int, *, positions: int = 40,
                                       bots: Sequence[str] = BOTS) -> int:
    """At seeded chance steps of a game of each of `bots`, every outcome `chance` offers
    is one `check` finds no error or warning in: the simulator draws them without checking
    (`projections.corpus.simulate.play`). Returns how many outcomes were checked."""
    ruleset = rules.ruleset
    checked = 0
    for bot in dict.fromkeys(bots):
        events = play(rules, ruleset.example_seats, seed=seed, bot=bot)
        states = [step.state for step in replay(events[:-1] if isinstance(events[-1], MatchEnded) else events, rules, audit=False)]
        steps = [(s, outcomes) for s in states if (outcomes := ruleset.chance(rules.params, s)) is not None]
        for state, outcomes in random.Random(seed).sample(steps, min(positions, len(steps))):
            for event, _ in outcomes:
                problems = [v for v in ruleset.check(rules.params, state, event) if v.severity != "info"]
                assert not problems, f"{bot} game, seed {seed}: the chance outcome {event!r} is refused: {problems[0].rule}"
                checked += 1
    return checked


def check_bot_plays_as_its_reference(rules: Rules, bot: str, reference: Bot, seed: int, *,
                                     seats: Mapping[str, str] | None = None) -> int:
    """At every decision of a seeded game of `bot` (played by the simulator, `play`), the bot
    picks the event its `reference` policy picks from the same legal events, listed, with a
    generator in the same state, and leaves the generator where the reference leaves it; and
    it picks the same from `legal`'s own sequence (lazy, `rulesets.legal`) as from its list.

    A reference scores every legal event as the strategy reads and takes the best, its ties
    broken by the very draws the bot takes: this is what holds a bot that bounds, prunes or
    remembers to what it means, as `check_legal_is_what_check_accepts` holds `legal` to
    `check`. The game played is the bot's own, so a divergence is found where it first
    happens. Returns how many decisions were compared."""
    ruleset = rules.ruleset
    fast = ruleset.bots[bot]
    compared = 0
    plain, listed = random.Random(0), random.Random(0)  # set to the game's generator at each decision

    def twin(params: Any, state: Any, legal: Sequence[Event], rng: random.Random) -> Event:
        nonlocal compared
        where = f"{ruleset.name} {bot} bot, seed {seed}, decision {compared}"
        events = list(ruleset.legal(params, state))
        plain.setstate(rng.getstate())
        listed.setstate(rng.getstate())
        expected = reference(params, state, events, plain)
        from_list = fast(params, state, events, listed)
        picked = fast(params, state, legal, rng)
        assert picked == expected, f"{where}: the bot plays {picked!r}, its reference {expected!r}"
        assert rng.getstate() == plain.getstate(), f"{where}: the bot draws otherwise than its reference"
        assert from_list == picked and listed.getstate() == plain.getstate(), f"{where}: the bot picks otherwise from legal listed"
        compared += 1
        return picked

    twinned = msgspec.structs.replace(rules, ruleset=dataclasses.replace(ruleset, bots={**ruleset.bots, bot: twin}))
    play(twinned, seats or ruleset.example_seats, seed=seed, bot=bot)
    return compared


def check_attempts_are_refused(rules: Rules, seed: int, *, positions: int = 40, bot: str = "heuristic") -> int:
    """At seeded positions of a `bot` game, every mistake the ruleset offers the recorder
    (`attempts`) is one the rules refuse: one they accept belongs in `candidates`. Returns
    how many attempts were checked."""
    ruleset = rules.ruleset
    if ruleset.attempts is None:
        return 0
    events = play(rules, ruleset.example_seats, seed=seed, bot=bot)
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

    from projections.corpus.mutations import Subject, cascades

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
    from projections.corpus.mutations import Subject, recalls

    found = recalls([Subject(events, rules)], count, seed=3)
    assert found, "no pair of independent mistakes could be made of this log"
    missed = [r.what[i] for r in found for i, named in enumerate(r.named) if not named]
    assert not missed, f"{len(missed)} of {2 * len(found)} mistakes not named: {missed[:3]}"

# --- one game held to the checks its parts call for (`tabletape check-game`) ----------------


class Ran(msgspec.Struct, frozen=True, kw_only=True):
    """One check of `check_game`: passed, failed or skipped, and why, in one line."""

    check: str
    status: Literal["passed", "failed", "skipped"]
    reason: str


class GameReport(msgspec.Struct, frozen=True, kw_only=True):
    """What `check_game` found: the game's level, each check, and what each missing part adds."""

    game: str
    level: Level
    checks: tuple[Ran, ...]

    @property
    def ok(self) -> bool:
        """Every check that ran passed."""
        return all(ran.status != "failed" for ran in self.checks)

    def lines(self) -> list[str]:
        """The report as a designer reads it: level, checks, then what to add next."""
        out = [f"{self.game}: level {self.level.level}"]
        out += [f"  {ran.status:<8} {ran.check}: {ran.reason}" for ran in self.checks]
        if self.level.missing:
            out.append("what each missing part would add:")
            out += [f"  {part.name} (level {part.level}): {part.adds}" if part.level else f"  {part.name}: {part.adds}"
                    for part in self.level.missing]
        counts = {status: sum(ran.status == status for ran in self.checks) for status in ("passed", "failed", "skipped")}
        out.append(", ".join(f"{count} {status}" for status, count in counts.items()))
        return out


class Skip(Exception):
    """A check that cannot run for this game: the part or the log it needs is missing."""


def check_game(rules: Rules, logs: Sequence[Sequence[Event]] = (), *, seed: int = 11) -> GameReport:
    """Every check the game's parts call for, each caught and told in one line.

    Checks of an optional part run only when the game defines it. Checks that fold a log run
    over the `logs` given (a designer's sample game) and, for a game with `legal`, over a
    seeded game of its default bot."""
    ruleset = rules.ruleset
    games, played = list(logs), _BotGame(rules, logs, seed)
    if ruleset.gives("legal") and played.events:  # one that fails is told by its own check
        games.append(played.events)
    checks: list[tuple[str, Callable[[], str]]] = [
        ("events keep the envelope", lambda: _envelope(rules)),
        ("events are frozen", lambda: _frozen(rules)),
        ("rules modules are pure", lambda: _pure(ruleset)),
        ("setup accepts the example seating", lambda: _setup(rules, logs)),
        ("the game is not over at the start", lambda: _not_over(rules, logs)),
        ("apply never changes its input", lambda: _each_log(games, lambda g: check_apply_does_not_mutate(rules, g))),
        ("a snapshot plus the tail is the full replay", lambda: _each_log(games, lambda g: check_timeline_matches_replay(rules, g))),
        ("states survive a snapshot", lambda: _each_log(games, lambda g: check_states_survive_a_snapshot(rules, g))),
        ("check names the game's rule ids", lambda: _rule_ids(rules, logs)),
        ("a seeded bot game finishes clean", played.check),
        ("the same seed gives the same log", lambda: _deterministic(rules, logs, seed)),
        ("every chance outcome offered is accepted", lambda: _chance(rules, seed)),
        ("legal is exactly what check accepts", lambda: _candidates(rules, seed)),
        ("the mistakes offered are refused", lambda: _attempts(rules, seed)),
        ("one table mistake gives one finding", lambda: _planted(
            rules, played, check_one_mistake_gives_one_finding,
            f"{CASCADE_SAMPLE} mistakes planted in the bot game: at most one follow-on finding at p95")),
        ("a second mistake is named beside the first", lambda: _planted(
            rules, played, check_independent_mistakes_are_each_named,
            f"{RECALL_SAMPLE} pairs of independent mistakes planted in the bot game: each named")),
    ]
    return GameReport(game=ruleset.name, level=level_of(ruleset), checks=tuple(_run(name, check) for name, check in checks))


def _run(name: str, check: Callable[[], str]) -> Ran:
    """One check, whatever a designer's code raises, told in one line."""
    try:
        return Ran(check=name, status="passed", reason=check())
    except Skip as skipped:
        return Ran(check=name, status="skipped", reason=str(skipped))
    except AssertionError as error:
        return Ran(check=name, status="failed", reason=_one_line(str(error) or "an assertion failed"))
    except Exception as error:  # a designer's game may fail in any way: say how
        where = _where(error)
        return Ran(check=name, status="failed", reason=_one_line(f"{type(error).__name__}: {error}{where}"))


def _one_line(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else text
    return first if len(first) <= 160 else first[:159] + "…"


def _where(error: Exception) -> str:
    """` (game.py, line 40)`: the last frame of the traceback, where the game raised."""
    frame = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    return f" ({Path(frame[0].filename).name}, line {frame[0].lineno})" if frame else ""


def _needs(rules: Rules, part: str) -> None:
    if not rules.ruleset.gives(part):
        raise Skip(f"the game has no `{part}`")


def _seats(rules: Rules, logs: Sequence[Sequence[Event]]) -> dict[str, str]:
    """The game's example seating, else the first log's."""
    if rules.ruleset.example_seats:
        return dict(rules.ruleset.example_seats)
    for log in logs:
        if log and isinstance(log[0], MatchStarted):
            return dict(log[0].seats)
    raise Skip("the game names no `example_seats` and no log was given")


def _line0(rules: Rules, logs: Sequence[Sequence[Event]]) -> MatchStarted:
    ruleset = rules.ruleset
    return MatchStarted(seq=0, match_id="contract", ruleset=ruleset.name, version=rules.version,
                        seats=_seats(rules, logs), fingerprint=ruleset.fingerprint)


def _envelope(rules: Rules) -> str:
    check_events_keep_the_envelope(rules)
    return f"{len(rules.ruleset.events)} event types, none reuses seq, at, by or prev"


def _frozen(rules: Rules) -> str:
    loose = [kind.__name__ for kind in rules.ruleset.events if not kind.__struct_config__.frozen]
    assert not loose, f"{', '.join(loose)} not frozen: declare them `frozen=True` so no fold can change a logged event"
    return "every event type is a frozen Struct"


def _pure(ruleset: Any) -> str:
    module = sys.modules.get(ruleset.setup.__module__)
    path = Path(getattr(module, "__file__", "") or "")
    if not path.is_file():
        raise Skip(f"the code of {ruleset.setup.__module__} is not a file to read")
    checked = [path]
    if (path.parent / "__init__.py").exists():
        checked += [path.parent / f"{name}.py" for name in PURE_MODULES if (path.parent / f"{name}.py").exists()]
    for module_path in dict.fromkeys(checked):
        check_module_is_pure(module_path)
    names = list(dict.fromkeys(p.name for p in checked))
    return f"{', '.join(names)} {'imports' if len(names) == 1 else 'import'} no I/O, clock or randomness"


def _setup(rules: Rules, logs: Sequence[Sequence[Event]]) -> str:
    ruleset, line0 = rules.ruleset, _line0(rules, logs)
    problems = ruleset.validate_start(rules.params, line0)
    assert problems == [], f"validate_start refuses {line0.seats}: {problems[0]}"
    state = ruleset.setup(rules.params, line0)
    if ruleset.gives("legal"):
        assert ruleset.chance(rules.params, state) or list(ruleset.legal(rules.params, state)), \
            "setup gives a state with no legal move and no chance step"
    return f"seats {', '.join(line0.seats)} give a {type(state).__name__}"


def _not_over(rules: Rules, logs: Sequence[Sequence[Event]]) -> str:
    _needs(rules, "outcome")
    state = rules.ruleset.setup(rules.params, _line0(rules, logs))
    ended = rules.ruleset.outcome(rules.params, state)
    assert ended is None, f"outcome says the game is over before anything is played: {ended.reason if ended else ''}"
    return "outcome is None after setup"


def _each_log(games: Sequence[Sequence[Event]], check: Callable[[list], None]) -> str:
    if not games:
        raise Skip("no log to fold: give one with --log (a game with `legal` plays its own)")
    for events in games:
        check(list(events))
    return f"over {len(games)} log(s), {sum(len(g) for g in games)} events"


def _rule_ids(rules: Rules, logs: Sequence[Sequence[Event]]) -> str:
    _needs(rules, "check")
    if not logs:
        raise Skip("no log given to audit (--log)")
    name, found, table = rules.ruleset.name, 0, rules.ruleset.rule_ids
    for events in logs:
        report = audit(list(events), rules)
        for violation in report.violations:
            assert violation.rule.startswith(f"{name}/") or violation.rule.startswith("core/"), \
                f"seq {violation.seq}: the rule id {violation.rule!r} does not start with `{name}/`"
            assert table is None or violation.rule in table or violation.rule.startswith("core/"), \
                f"seq {violation.seq}: the rule id {violation.rule!r} is not in {name}'s table of rule ids"
        found += len(report.violations)
    declared = f" declared in its table of {len(table)} rule ids" if table else ""
    return f"{found} finding(s) in the log(s) given, each naming a rule of {name}{declared}"


class _BotGame:
    """The seeded game of the default bot, played once: the log checks fold it too."""

    def __init__(self, rules: Rules, logs: Sequence[Sequence[Event]], seed: int) -> None:
        self.rules, self.seed, self.bot = rules, seed, rules.ruleset.default_bot or "random"
        self.events: list[Event] = []
        self.error: Exception | None = None
        if rules.ruleset.gives("legal"):
            try:
                self.events = play(rules, _seats(rules, logs), seed=seed, bot=self.bot)
            except Exception as error:  # a designer's game may fail in any way: told by `check`
                self.error = error

    def check(self) -> str:
        """It finishes with a declared result and audits clean."""
        _needs(self.rules, "legal")
        if self.error is not None:
            raise self.error
        rules, events, bot, seed = self.rules, self.events, self.bot, self.seed
        assert isinstance(events[-1], MatchEnded), f"the {bot} bot's game with seed {seed} did not finish in {len(events)} events"
        report = audit(events, rules)
        assert report.errors == (), f"seq {report.errors[0].seq}: {report.errors[0].rule}: {report.errors[0].message}" if report.errors else ""
        assert report.result.agrees, report.result.message
        return f"the {bot} bot finished in {len(events)} events, audited clean"


def _deterministic(rules: Rules, logs: Sequence[Sequence[Event]], seed: int) -> str:
    _needs(rules, "legal")
    seats = _seats(rules, logs)
    one, two = (msgspec.json.encode(play(rules, seats, seed=seed, bot="random")) for _ in range(2))
    assert one == two, f"two games with seed {seed} differ: something in the rules is not a function of its inputs"
    return f"seed {seed} twice, byte for byte"


def _own_bots(rules: Rules) -> tuple[str, ...]:
    return tuple(dict.fromkeys(("random", rules.ruleset.default_bot or "random")))


def _chance(rules: Rules, seed: int) -> str:
    _needs(rules, "chance")
    _needs(rules, "legal")
    checked = check_chance_outcomes_are_accepted(rules, seed, positions=25, bots=_own_bots(rules))
    return f"{checked} outcomes at seeded chance steps" if checked else "no chance step came up in the seeded games"


def _candidates(rules: Rules, seed: int) -> str:
    if rules.ruleset.candidates is None:
        raise Skip("the game has no `candidates` (optional)")
    compared = check_legal_is_what_check_accepts(rules, seed, bots=_own_bots(rules))
    return f"{compared} seeded positions compared"


def _attempts(rules: Rules, seed: int) -> str:
    if rules.ruleset.attempts is None:
        raise Skip("the game has no `attempts` (optional)")
    checked = check_attempts_are_refused(rules, seed, bot=rules.ruleset.default_bot or "random")
    return f"{checked} attempts refused"


def _planted(rules: Rules, played: _BotGame, check: Callable[[Rules, list], None], said: str) -> str:
    """Mistakes planted in the seeded bot game (`check` plants and judges them): the game
    needs `check` to name them and `legal` to have played."""
    _needs(rules, "check")
    _needs(rules, "legal")
    if not played.events:
        raise Skip("the seeded bot game did not play (see its check)")
    check(rules, played.events)
    return said


def read_log(rules: Rules, data: bytes, *, where: str) -> list[Event]:
    """A log to check: a whole one (line 0 first) or drafts as `tabletape append` reads them,
    which get a line 0 of the example seating and their seqs."""
    events = decode_drafts(data, rules.ruleset.codec, where=where)
    if not events or not isinstance(events[0], MatchStarted):
        events = [_line0(rules, ()), *events]
    return [msgspec.structs.replace(event, seq=seq) for seq, event in enumerate(events)]
