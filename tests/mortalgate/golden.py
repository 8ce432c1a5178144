"""Golden logs: a full bot game per version, and a playtest with deliberate table mistakes.

`python -m tests.mortalgate.golden` rewrites the transcripts from the logs, so a rules
change that moves one shows up as a reviewed diff (OpenSpiel's playthroughs). The logs
are inputs (what was played): `--logs` records them anew, which only a change of the
event format should need.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import msgspec

from events.base import Event
from events.codec import decode_log
from events.shared import MatchEnded, MatchStarted, Retracted, Ruled
from projections.corpus.simulate import SIM_EPOCH, SIM_STEP, play
from projections.read.audit import audit
from projections.read.replay import replay
from rulesets import registry
from rulesets.mortalgate import board
from rulesets.mortalgate.events import AltarCaptured, AttackDeclared, AttackRolled, HeroMoved
from rulesets.mortalgate.state import State, attack_range, contested, find, game_map, occupied
from rulesets.registry import Rules
from tests.golden_support import fix_references

HERE = Path(__file__).parent / "golden"
VERSIONS = ("1.5", "2.0", "2.1", "2.5")
GOLDEN_SEED = 3
MISTAKES_SEED = 8


def log_path(name: str) -> Path:
    """Where a golden log lives."""
    return HERE / f"{name}.jsonl"


def read_log(name: str) -> list[Event]:
    """Decode a golden log with MortalGate's codec."""
    lines = log_path(name).read_bytes().splitlines()
    return list(decode_log(lines, registry.game("mortalgate").codec, where=str(log_path(name))))


def write_log(name: str, events: list[Event]) -> None:
    """Write a log as JSON lines."""
    log_path(name).write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))


def transcript(events: list[Event], rules: Rules) -> str:
    """One line per event: seq, type, the actor, Grace, and each violation; then the audit.

    The rules fingerprint note is left out: it changes with every edit of the code and
    says nothing about the game.
    """
    out = []
    ruleset = rules.ruleset
    for step in replay(events, rules):
        event = step.event
        progress = ruleset.progress(rules.params, step.state)
        grace = ruleset.metrics(rules.params, step.state)
        line = (f"{event.seq:>5} {type(event).__name__:<16} by={event.by or '-':<5} turn={progress.turn:<3} "
                f"phase={progress.phase:<9} grace={grace['grace_red']:g}-{grace['grace_blue']:g}")
        out.append(line)
        out += [f"      ! {v.severity} {v.rule}: {v.message}" for v in step.violations if v.rule != "core/rules-changed"]
    report = audit(events, rules)
    out.append(f"result: {report.result.message} ({'agrees' if report.result.agrees else 'WRONG'})")
    return "\n".join(out) + "\n"


def transcript_path(name: str) -> Path:
    """Where a golden transcript lives."""
    return HERE / f"{name}.transcript"


def golden_rules(name: str) -> Rules:
    """The rules a golden log is replayed under (its own version)."""
    header = read_log(name)[0]
    assert isinstance(header, MatchStarted)
    return registry.resolve(f"mortalgate@{header.version}")


# --- the playtest with mistakes --------------------------------------------------------------


def mistakes_game(seed: int = MISTAKES_SEED) -> list[Event]:
    """A 2.5 game in which the table makes each classic mistake once, then plays on.

    The heuristic bot plays; when a situation allows a mistake not yet made, the table
    makes it instead: an attack out of range, a move through a hero, a capture of a
    contested altar, a hit claimed on a missed roll. Then: an undone move (Retracted),
    a table ruling, and the wrong winner declared.
    """
    rules = registry.resolve("mortalgate@2.5")
    ruleset = rules.ruleset
    rng = random.Random(seed)
    seats = {"red": "ana", "blue": "ben"}
    started = MatchStarted(seq=0, at=SIM_EPOCH, match_id="mortalgate-mistakes", ruleset="mortalgate", version="2.5",
                           seats=seats, source="playtest", title="Thursday playtest (with table mistakes)",
                           fingerprint=ruleset.fingerprint)
    events: list[Event] = [started]
    state = ruleset.setup(rules.params, started)
    made: set[str] = set()
    bot = ruleset.bots["heuristic"]
    while ruleset.outcome(rules.params, state) is None and len(events) < 6000:
        outcomes = ruleset.chance(rules.params, state)
        if outcomes is not None:
            batch = [rng.choices([e for e, _ in outcomes], weights=[w for _, w in outcomes])[0]]
            batch = [_claim_hit_on_a_miss(rules, state, batch[0], made)]
        else:
            batch = _mistake(rules, state, made) or [bot(rules.params, state, list(ruleset.legal(rules.params, state)), rng)]
        for event in batch:
            event = msgspec.structs.replace(event, seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events))
            events.append(event)
            state = ruleset.apply(rules.params, state, event)
    assert made >= {"range", "through", "contested", "claimed-hit"}, made
    result = ruleset.outcome(rules.params, state)
    assert result is not None
    wrong = "blue" if result.winner == "red" else "red"
    events.append(MatchEnded(seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events), winner=wrong,
                             reason="the table miscounted Grace"))
    return events


def _claim_hit_on_a_miss(rules: Rules, state: State, event: Event, made: set[str]) -> Event:
    if "claimed-hit" in made or not isinstance(event, AttackRolled) or event.tens * 10 + event.ones >= 30:
        return event
    turn = state.turn
    assert turn is not None
    attacker, target = find(state, turn.pending[0].attacker), find(state, event.target)
    from rulesets.mortalgate.state import chance_to_hit, is_hit

    if attacker is None or target is None or is_hit(chance_to_hit(rules.params, state, attacker, target), event.tens, event.ones):
        return event
    made.add("claimed-hit")
    return msgspec.structs.replace(event, hit=True)


def _mistake(rules: Rules, state: State, made: set[str]) -> list[Event] | None:
    """The first mistake the position allows that the table has not made yet."""
    turn = state.turn
    if state.stage != "play" or turn is None or turn.pending or turn.phase == "done":
        return None
    hero = find(state, turn.hero)
    if hero is None or not hero.alive or hero.node is None:
        return None
    by = hero.seat
    if "through" not in made and turn.phase in ("upkeep", "movement") and turn.moved == 0:
        taken = occupied(state)
        gmap = game_map(rules.params)
        for d in range(6):
            over, beyond = board.step(hero.node, d), board.step(board.step(hero.node, d), d)
            if over in taken and board.on_board(beyond) and beyond not in taken and beyond not in gmap.impassable:
                made.add("through")
                moved = HeroMoved(by=by, hero=hero.id, path=(over, beyond))
                if "retract" not in made:  # the table noticed this one at once and took it back
                    made.add("retract")
                    return [moved, Retracted(by=by, target_seq=-1, reason="moved through a hero by mistake"), moved]
                return [moved]
    if "range" not in made and turn.attacks_left > 0 and not turn.stunned:
        reach = attack_range(rules.params, hero)
        for enemy in state.heroes:
            if enemy.team != hero.team and enemy.alive and enemy.node and reach < board.distance(hero.node, enemy.node) <= reach + 2:
                made.add("range")
                return [AttackDeclared(by=by, hero=hero.id, target=enemy.id)]
    if "contested" not in made:
        for altar, owner in zip(game_map(rules.params).altars, state.altars, strict=True):
            if hero.node in altar.zone and owner != hero.team and contested(rules.params, state, altar.id, hero.team):
                made.add("contested")
                return [AltarCaptured(by=by, hero=hero.id, altar=altar.id),
                        Ruled(rule="mortalgate/altars.contested", decision="the enemy was only passing through; capture stands",
                              applies_to=-1)]
    return None






def regenerate(record_logs: bool) -> None:
    """Rewrite transcripts (and with `record_logs`, the logs themselves)."""
    HERE.mkdir(exist_ok=True)
    if record_logs:
        for version in VERSIONS:
            rules = registry.resolve(f"mortalgate@{version}")
            events = play(rules, {"red": "ana", "blue": "ben"}, seed=GOLDEN_SEED, bot="heuristic",
                          match_id=f"golden-{version}")
            write_log(f"mortalgate-{version}", events)
        write_log("mortalgate-mistakes", fix_references(mistakes_game()))
    for name in [*(f"mortalgate-{v}" for v in VERSIONS), "mortalgate-mistakes"]:
        transcript_path(name).write_text(transcript(read_log(name), golden_rules(name)))


if __name__ == "__main__":
    regenerate(record_logs="--logs" in sys.argv)
