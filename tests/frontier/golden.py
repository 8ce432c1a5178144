"""Golden logs: a full bot game per mission, and a playtest with deliberate table mistakes.

`python -m tests.frontier.golden` rewrites the transcripts from the logs, so a rules change
that moves one shows up as a reviewed diff (OpenSpiel's playthroughs). The logs are inputs
(what was played): `--logs` records them anew, which only a change of the event format
should need.

`projections.corpus.simulate.play` starts every match with the default options; Frontier's
mission is an option, so `simulate` below is the same loop with options.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from events.base import Event
from events.codec import decode_log
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.corpus.simulate import SIM_EPOCH, SIM_STEP
from projections.read.audit import audit
from projections.read.replay import replay
from rulesets import registry
from rulesets.frontier import board, movement, rolls
from rulesets.frontier.events import ActionDeclared, ActionRolled, UnitMoved
from rulesets.frontier.state import State, enemies_of, find, gap, on_board, sees
from rulesets.frontier.timing import front
from rulesets.registry import Rules
from tests.golden_support import fix_references, found_rules

HERE = Path(__file__).parent / "golden"
MISSIONS = ("assault", "sabotage", "ambush", "escort")
GOLDEN_SEED = 2
MISTAKES_SEED = 2
SEATS = {"p1": "ana", "p2": "ben"}
MISTAKES_OPTIONS = {
    "mission": "assault",
    "factions": {"p1": "interstellar_raiders", "p2": "rebels"},
    "armies": {"p1": ["breacher", "breacher", "captain", "bosun", "lobo"], "p2": ["saboteur", "insurgent", "insurgent", "jaeger", "recon_biker"]},
}
"""Two breachers (Friendly Competition: advantage) and rebels rolling D6s: the mistakes find their moment."""


def rules() -> Rules:
    """Frontier's rules (its one version)."""
    return registry.resolve("frontier")


def simulate(options: dict[str, Any], *, seed: int, bot: str = "heuristic", match_id: str = "sim", title: str = "",
             tamper: Callable[[Rules, State, Event, set[str]], list[Event]] | None = None, max_events: int = 20_000) -> list[Event]:
    """Play a seeded bot game with match options (`tamper` may replace an event by the table's mistakes)."""
    r = rules()
    ruleset, params = r.ruleset, r.params
    rng = random.Random(seed)
    started = MatchStarted(seq=0, at=SIM_EPOCH, match_id=match_id, ruleset="frontier", version=r.version, seats=dict(SEATS),
                           options=dict(options), seed=seed, source="simulation" if tamper is None else "playtest",
                           title=title or f"{bot} bots, seed {seed}", fingerprint=ruleset.fingerprint)
    state = ruleset.setup(params, started)
    events: list[Event] = [started]
    made: set[str] = set()
    while len(events) < max_events and ruleset.outcome(params, state) is None:
        outcomes = ruleset.chance(params, state)
        if outcomes is not None:
            event = rng.choices([e for e, _ in outcomes], weights=[w for _, w in outcomes])[0]
        else:
            event = ruleset.bots[bot](params, state, list(ruleset.legal(params, state)), rng)
        for step in tamper(r, state, event, made) if tamper else [event]:
            step = msgspec.structs.replace(step, seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events))
            events.append(step)
            state = ruleset.apply(params, state, step)
    result = ruleset.outcome(params, state)
    if result is not None:
        events.append(MatchEnded(seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events), winner=result.winner, reason=result.reason))
    return fix_references(events)


def log_path(name: str) -> Path:
    """Where a golden log lives."""
    return HERE / f"{name}.jsonl"


def transcript_path(name: str) -> Path:
    """Where a golden transcript lives."""
    return HERE / f"{name}.transcript"


def read_log(name: str) -> list[Event]:
    """Decode a golden log with Frontier's codec."""
    lines = log_path(name).read_bytes().splitlines()
    return list(decode_log(lines, registry.game("frontier").codec, where=str(log_path(name))))


def write_log(name: str, events: list[Event]) -> None:
    """Write a log as JSON lines."""
    log_path(name).write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))


def transcript(events: list[Event], r: Rules) -> str:
    """One line per event: seq, type, who, turn, step, points destroyed per side, and each
    violation; then the audit's result. The rules fingerprint note is left out."""
    out = []
    for step in replay(events, r):
        event = step.event
        progress = r.ruleset.progress(r.params, step.state)
        m = r.ruleset.metrics(r.params, step.state)
        lost = f"{m.get('attacker_destroyed', 0):g}-{m.get('defender_destroyed', 0):g}"
        out.append(f"{event.seq:>5} {type(event).__name__:<18} by={event.by or '-':<3} turn={progress.turn:<3} "
                   f"step={progress.phase:<24} lost={lost:<7} {_detail(event)}".rstrip())
        out += [f"      ! {v.severity} {v.rule}: {v.message}" for v in step.violations if v.rule != "core/rules-changed"]
    report = audit(events, r)
    out.append(f"result: {report.result.message} ({'agrees' if report.result.agrees else 'WRONG'})")
    return "\n".join(out) + "\n"


def _detail(event: Event) -> str:
    """The event's own fields in short (units and points, not the envelope)."""
    fields = msgspec.structs.asdict(event)
    for key in ("seq", "at", "by", "prev", "fingerprint", "options", "outline", "levels", "seats", "params", "title", "match_id"):
        fields.pop(key, None)
    parts = [f"{k}={v}" for k, v in fields.items()
             if v is not msgspec.UNSET and (v not in (None, (), "", {}, 0) or (k in ("level",) and v))]
    return " ".join(parts)[:150]


def golden_rules(name: str) -> Rules:
    """The rules a golden log replays under (its own version)."""
    header = read_log(name)[0]
    assert isinstance(header, MatchStarted)
    return registry.resolve(f"frontier@{header.version}")


# --- the playtest with mistakes -------------------------------------------------------------------


def mistakes_game() -> list[Event]:
    """An assault in which the table makes each classic mistake once, then plays on: a D6 showing
    7, a kept low die under advantage, open fire at 8", an overlong move, a third reaction die.
    Besides: a ruling on how to measure, an overlong move the table noticed and took back
    (Retracted), and the wrong winner declared."""
    events = simulate(MISTAKES_OPTIONS, seed=MISTAKES_SEED, match_id="frontier-mistakes", title="Tuesday playtest (with table mistakes)",
                      tamper=_mistake)
    ended = events[-1]
    assert isinstance(ended, MatchEnded)
    wrong = "p1" if ended.winner == "p2" else "p2"
    return [*events[:-1], msgspec.structs.replace(ended, winner=wrong, reason="the table forgot the victory table")]


MISTAKES = ("die-7", "kept-low", "range-8", "overlong", "third-die")
MISTAKE_RULES = ("action-roll.die", "advantage.kept", "open-fire.range", "movement.distance", "advantage.dice-count")
"""The rule each mistake breaks, in the same order."""


def _mistake(r: Rules, state: State, event: Event, made: set[str]) -> list[Event]:
    """The event as the table recorded it: the first mistake this moment allows, if not yet made."""
    if isinstance(event, ActionRolled):
        return [_roll_mistake(r, state, event, made)]
    if state.turn is None or state.stage != "play":
        return [event]
    if "range-8" not in made and isinstance(event, ActionDeclared) and front(state.turn) is None:
        shot = _short_shot(state, event)
        if shot is not None:
            made.add("range-8")
            return [shot]
    if "overlong" not in made and isinstance(event, UnitMoved):
        window = front(state.turn)
        unit = find(state, event.unit)
        if window is not None and not window.forced and unit is not None and unit.at is not None:
            long = _overlong(r, state, unit, window)
            if long is not None and "retract" not in made:  # the first time the table notices and moves it back
                made.add("retract")
                return [long, Retracted(by=long.by, target_seq=-1, reason="measured from the front of the base; moved back"), event]
            if long is not None:
                made.add("overlong")
                return [long]
    if "ruling" not in made:
        made.add("ruling")
        return [Ruled(by=state.turn.seat, rule="frontier/measuring", decision="distances are measured from the centre of the base, as tabletape does"), event]
    return [event]


def _roll_mistake(r: Rules, state: State, event: ActionRolled, made: set[str]) -> ActionRolled:
    specs = rolls.action_rolls(r.params, state)
    if specs is None:
        return event
    mine, theirs = specs
    if "die-7" not in made and mine.number == 1 and mine.dice == (6,):
        made.add("die-7")
        return msgspec.structs.replace(event, active=(7,), active_die=6)
    if "kept-low" not in made and theirs.keep == "high" and len(set(event.reactive)) == 2:
        made.add("kept-low")
        return msgspec.structs.replace(event, reactive_kept=min(event.reactive))
    if "kept-low" not in made and mine.keep == "high" and len(set(event.active)) == 2:
        made.add("kept-low")
        return msgspec.structs.replace(event, active_kept=min(event.active))
    if "third-die" not in made and theirs.number == 2 and max(theirs.dice) >= 2:
        made.add("third-die")
        return msgspec.structs.replace(event, reactive=(*event.reactive, 2))
    return event


def _short_shot(state: State, event: ActionDeclared) -> ActionDeclared | None:
    """Open fire at an enemy in sight about 8" away instead of what the player meant to do."""
    unit = find(state, event.unit)
    if unit is None or unit.at is None:
        return None
    for enemy in enemies_of(state, unit):
        if 7.5 <= gap(unit, enemy) <= 8.5 and sees(state, unit, enemy):
            return ActionDeclared(by=event.by, unit=unit.id, action="open_fire", target=enemy.id)
    return None


def _overlong(r: Rules, state: State, unit: Any, window: Any) -> UnitMoved | None:
    """A move 2" past what the unit may move, in a direction where nothing else is wrong."""
    reach = movement.allowance(unit, window) + 2
    for angle in range(0, 360, 15):
        to = movement.snap(board.polar(unit.at, angle, reach))
        problems = movement.move_problems(r.params, state, unit, window, to, 0, ())
        if [p.rule for p in problems] == ["movement.distance"] and all(board.distance(to, o.at) > 3 for o in on_board(state) if o.id != unit.id and o.at):
            return UnitMoved(by=window.seat, unit=unit.id, to=to)
    return None






def names() -> list[str]:
    """Every golden log's name."""
    return [*(f"frontier-{m}" for m in MISSIONS), "frontier-mistakes"]


def regenerate(record_logs: bool) -> None:
    """Rewrite transcripts (and with `record_logs`, the logs themselves)."""
    HERE.mkdir(exist_ok=True)
    if record_logs:
        for mission in MISSIONS:
            write_log(f"frontier-{mission}", simulate({"mission": mission}, seed=GOLDEN_SEED, match_id=f"golden-{mission}"))
        mistakes = mistakes_game()
        found = found_rules(audit(mistakes, rules()))
        assert all(len(found.get(f"frontier/{rule}", [])) == 1 for rule in MISTAKE_RULES), f"pick another MISTAKES_SEED: {found}"
        write_log("frontier-mistakes", mistakes)
    for name in names():
        transcript_path(name).write_text(transcript(read_log(name), golden_rules(name)))


if __name__ == "__main__":
    regenerate(record_logs="--logs" in sys.argv)
