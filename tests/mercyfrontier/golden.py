"""Golden logs: bot games of the current rules, the accelerated start and the 6th play test, and a hand-written
playtest with known table mistakes.

`python -m tests.mercyfrontier.golden` rewrites the transcripts from the logs, so a rules
change that moves one shows up as a reviewed diff; `--logs` records the logs anew (only a
change of the event format should need it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from events.base import Event
from events.codec import decode_log
from events.shared import MatchEnded, MatchStarted, Retracted
from projections.corpus.simulate import SIM_EPOCH, SIM_STEP, play
from projections.read.audit import audit
from projections.read.replay import replay
from rulesets import registry
from rulesets.mercyfrontier.events import (
    BuildingBuilt,
    CardRevealed,
    CombatResolved,
    MercenaryHired,
    MercenaryMoved,
    MercenaryPlaced,
    ResourcesCollected,
    StepFinished,
    WorkersPlaced,
)
from rulesets.mercyfrontier.resources import Resources as R
from rulesets.registry import Rules

HERE = Path(__file__).parent / "golden"
GAMES = {"mercyfrontier-current": ("current", 3), "mercyfrontier-accelerated": ("accelerated", 4), "mercyfrontier-playtest-6": ("playtest-6", 3)}
"""Golden full games: name -> (version, seed of a heuristic-bot game)."""
MISTAKES = {
    "mercyfrontier/workers.collection": [6],
    "mercyfrontier/building.worker": [11],
    "mercyfrontier/mercenaries.credits": [14],
    "mercyfrontier/action.rarity": [29],
    "mercyfrontier/combat.simultaneous": [47],
}
"""Rule id -> the seqs where the hand-written playtest breaks it (the placement in yellow's
home row at seq 22 was taken back at once, so it is not counted)."""


def rules(version: str = "current") -> Rules:
    return registry.resolve(f"mercyfrontier@{version}")


def log_path(name: str) -> Path:
    return HERE / f"{name}.jsonl"


def transcript_path(name: str) -> Path:
    return HERE / f"{name}.transcript"


def read_log(name: str) -> list[Event]:
    """Decode a golden log with Mercy Frontier's codec."""
    lines = log_path(name).read_bytes().splitlines()
    return list(decode_log(lines, registry.game("mercyfrontier").codec, where=str(log_path(name))))


def write_log(name: str, events: list[Event]) -> None:
    log_path(name).write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))


def mistakes_game() -> list[Event]:
    """An accelerated-start playtest typed in by hand, with five table mistakes, an undo and a
    result the table declared although the game was not over."""
    o, y = "orange", "yellow"
    body: list[Event] = [
        *(CardRevealed(card=c) for c in ("raider-1", "brute-1", "scout-1", "militia-1")),
        WorkersPlaced(by=o, spaces=((3, 13), (5, 13))),
        ResourcesCollected(by=o, gained=R(biofuel=1, neosteel=1)),  # mistake: both nodes have refineries (2 each)
        StepFinished(by=o),
        WorkersPlaced(by=y, spaces=((5, 1), (3, 1))),
        ResourcesCollected(by=y, gained=R(biofuel=2, neosteel=2)),
        StepFinished(by=y),
        BuildingBuilt(by=o, kind="beacon-biofuel", space=(0, 12)),  # mistake: no worker stands on (0, 12)
        StepFinished(by=o),
        StepFinished(by=y),
        MercenaryHired(by=o, card="brute-1", paid=R(biofuel=1, neosteel=1)),  # mistake: 3 credits for a 5-credit Brute
        MercenaryHired(by=o, card="raider-1", paid=R(neosteel=2, crystal=1)),
        StepFinished(by=o),
        CardRevealed(card="warden-1"),
        CardRevealed(card="militia-2"),
        MercenaryHired(by=y, card="scout-1", paid=R(biofuel=1, neosteel=1, crystal=1)),
        StepFinished(by=y),
        CardRevealed(card="lancer-1"),
        MercenaryPlaced(by=o, card="brute-1", space=(4, 2)),  # yellow's home row: taken back at once
        Retracted(by=o, target_seq=22, reason="placed in yellow's home row by mistake"),
        MercenaryPlaced(by=o, card="brute-1", space=(4, 12)),
        MercenaryPlaced(by=o, card="raider-1", space=(2, 12)),
        StepFinished(by=o),
        MercenaryPlaced(by=y, card="scout-1", space=(4, 2)),
        StepFinished(by=y),
        MercenaryMoved(by=o, card="brute-1", direction="north", spaces=3),  # mistake: a common moves 2
        MercenaryMoved(by=o, card="raider-1", direction="north", spaces=2),
        StepFinished(by=o),
        MercenaryMoved(by=y, card="scout-1", direction="south", spaces=3),
        StepFinished(by=y),
        WorkersPlaced(by=y, spaces=((5, 1), (3, 1))),
        ResourcesCollected(by=y, gained=R(biofuel=2, neosteel=2)),
        StepFinished(by=y),
        WorkersPlaced(by=o, spaces=((3, 13), (5, 13))),
        ResourcesCollected(by=o, gained=R(biofuel=2, neosteel=2)),
        StepFinished(by=o),
        StepFinished(by=y),
        StepFinished(by=o),
        StepFinished(by=y),
        StepFinished(by=o),
        StepFinished(by=y),
        StepFinished(by=o),
        MercenaryMoved(by=y, card="scout-1", direction="south", spaces=3),  # meets the Brute on (4, 9)
        CombatResolved(attacker="scout-1", defenders=("brute-1",), damage=(("scout-1", 3), ("brute-1", 0))),  # mistake: the Brute takes 1
        StepFinished(by=y),
        MercenaryMoved(by=o, card="brute-1", direction="north", spaces=2),
        MercenaryMoved(by=o, card="raider-1", direction="north", spaces=2),
        StepFinished(by=o),
        MatchEnded(winner=o, reason="yellow conceded after losing its only mercenary"),
    ]
    started = MatchStarted(seq=0, at=SIM_EPOCH, match_id="mercyfrontier-mistakes", ruleset="mercyfrontier", version="accelerated",
                           seats={o: "ana", y: "ben"}, source="playtest", title="Thursday playtest (typed in by hand)",
                           fingerprint=registry.game("mercyfrontier").fingerprint)
    return [started, *(msgspec.structs.replace(e, seq=i, at=SIM_EPOCH + SIM_STEP * i) for i, e in enumerate(body, start=1))]


def what(event: Event) -> str:
    """The event's own fields in one short string."""
    fields = msgspec.to_builtins(event)
    for key in ("type", "seq", "at", "by", "prev"):
        fields.pop(key, None)
    return " ".join(f"{k}={v}" for k, v in fields.items())[:60]


def transcript(events: list[Event], rules_: Rules) -> str:
    """One line per event: seq, type, actor, facts, turn and phase, purses; each violation; the audit."""
    out = []
    ruleset = rules_.ruleset
    for step in replay(events, rules_):
        event = step.event
        progress = ruleset.progress(rules_.params, step.state)
        purses = " ".join(f"{p.resources.biofuel}/{p.resources.neosteel}/{p.resources.crystal}" for p in step.state.players)
        line = f"{event.seq:>4} {type(event).__name__:<18} by={event.by or '-':<6} {what(event):<60} turn={progress.turn:<2} {progress.phase:<9} {purses}"
        out.append(line.rstrip())
        out += [f"      ! {v.severity} {v.rule}: {v.message}" for v in step.violations if v.rule != "core/rules-changed"]
    report = audit(events, rules_)
    out.append(f"result: {report.result.message} ({'agrees' if report.result.agrees else 'WRONG'})")
    return "\n".join(out) + "\n"


def regenerate(record_logs: bool) -> None:
    """Rewrite transcripts (and with `record_logs`, the logs themselves)."""
    HERE.mkdir(exist_ok=True)
    if record_logs:
        for name, (version, seed) in GAMES.items():
            r = rules(version)
            write_log(name, play(r, r.ruleset.example_seats, seed=seed, bot="heuristic", match_id=f"golden-{name}"))
        write_log("mercyfrontier-mistakes", mistakes_game())
    for name, (version, _) in GAMES.items():
        transcript_path(name).write_text(transcript(read_log(name), rules(version)))
    transcript_path("mercyfrontier-mistakes").write_text(transcript(read_log("mercyfrontier-mistakes"), rules("accelerated")))


if __name__ == "__main__":
    regenerate(record_logs="--logs" in sys.argv)
