"""Golden logs: bot-played games and a hand-written playtest with table mistakes.

`python -m tests.frontline.golden` rewrites the transcripts from the logs, so a rules
change that moves one shows up as a reviewed diff (OpenSpiel's playthroughs). The bot
logs are inputs (what was played): `--logs` records them anew, which only a change of
the event format should need. The mistakes log is typed by hand and never regenerated.
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from events.base import Event
from events.codec import decode_log
from projections.corpus.simulate import play
from projections.read.audit import audit
from projections.read.replay import replay
from rulesets import registry
from rulesets.frontline.events import (
    BuildingBuilt,
    BuildingDestroyed,
    FrontlineMoved,
    ResearchStarted,
    TrainingStarted,
    WorkersMoved,
)
from rulesets.frontline.state import State
from rulesets.registry import Rules

HERE = Path(__file__).parent / "golden"
GAMES = {"frontline-orc-human": ({"a": "orc", "b": "human"}, 3), "frontline-human-human": ({"a": "human", "b": "human"}, 7)}
"""Golden full games: name -> (races, seed of a heuristic-bot game)."""
MISTAKES = ("frontline/build.behind-frontline", "frontline/play.turn", "frontline/combat.force", "frontline/combat.frontline",
            "frontline/research.war-mill", "frontline/workers.count", "frontline/destroy.own", "frontline/train.race")
"""The table's mistakes in frontline-mistakes.jsonl, each made once: a barracks in the enemy's
base area, b acting in a's round, a miscounted force and the frontline moved with it, research
at a base, more workers moved than were there, a's attempt to destroy b's farm, an orc knight.
Besides: an orc farm taken back at once (Retracted), a second worker in one base ruled a house
rule (Ruled), and a winner declared before the game was over."""


def rules() -> Rules:
    """The one version."""
    return registry.resolve("frontline")


def log_path(name: str) -> Path:
    """Where a golden log lives."""
    return HERE / f"{name}.jsonl"


def read_log(name: str) -> list[Event]:
    """Decode a golden log with the game's codec."""
    lines = log_path(name).read_bytes().splitlines()
    return list(decode_log(lines, registry.game("frontline").codec, where=str(log_path(name))))


def transcript_path(name: str) -> Path:
    """Where a golden transcript lives."""
    return HERE / f"{name}.transcript"


def what(event: Event) -> str:
    """The event's own facts in a few characters: `tower@B1`, `grunt@barracks-1`, `2 gold>militia`."""
    match event:
        case BuildingBuilt(building=kind, area=area):
            return f"{kind}@{area}"
        case BuildingDestroyed(building=building):
            return f"x {building}"
        case WorkersMoved(count=n, origin=origin, to=to):
            return f"{n} {origin}>{to}"
        case TrainingStarted(unit=unit, building=building) | ResearchStarted(tech=unit, building=building):
            return f"{unit}@{building}"
        case FrontlineMoved(toward=toward, grids=grids):
            return f"{grids} into {toward}" if toward else "middle"
    return ""


def _sides(state: State) -> str:
    """`a 6g4l f0 | b 3g2l f0`: each side's gold, lumber and force."""
    return " | ".join(f"{s.seat} {s.gold}g{s.lumber}l" for s in state.sides)


def transcript(events: list[Event], rules_: Rules) -> str:
    """One line per event: seq, type, actor, facts, bout, phase, frontline, forces and
    repositories; each violation; the audit's result."""
    out = []
    ruleset = rules_.ruleset
    for step in replay(events, rules_):
        event, state = step.event, step.state
        progress = ruleset.progress(rules_.params, state)
        forces = "-".join(map(str, state.forces))
        line = (f"{event.seq:>4} {type(event).__name__:<17} by={event.by or '-':<2} {what(event):<26} "
                f"bout={progress.round:<2} phase={progress.phase:<9} front={state.front:<3} forces={forces:<6} {_sides(state)}")
        out.append(line.rstrip())
        out += [f"     ! {v.severity} {v.rule}: {v.message}" for v in step.violations if v.rule != "core/rules-changed"]
    report = audit(events, rules_)
    out.append(f"result: {report.result.message} ({'agrees' if report.result.agrees else 'WRONG'})")
    return "\n".join(out) + "\n"


def regenerate(record_logs: bool) -> None:
    """Rewrite transcripts (and with `record_logs`, the bot logs themselves)."""
    r = rules()
    if record_logs:
        for name, (races, seed) in GAMES.items():
            events = play(r, r.ruleset.example_seats, seed=seed, bot="heuristic", match_id=f"golden-{name}", options={"races": races})
            log_path(name).write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))
    for name in [*GAMES, "frontline-mistakes"]:
        transcript_path(name).write_text(transcript(read_log(name), r))


if __name__ == "__main__":
    regenerate(record_logs="--logs" in sys.argv)
