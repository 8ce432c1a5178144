"""Golden logs: full bot games for 2 and 4 players, and a playtest with deliberate table mistakes.

`python -m tests.mercenarium.golden` rewrites the transcripts from the logs, so a rules
change that moves one shows up as a reviewed diff (OpenSpiel's playthroughs). The logs are
inputs (what was played): `--logs` records them anew, which only a change of the event
format should need.
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
from rulesets.mercenarium import board, cards
from rulesets.mercenarium.events import (
    CardCaptured,
    CardDrawn,
    CardMoved,
    CardsAnnihilated,
    CardSummoned,
    DrawDeclared,
    ExtrasReturned,
    HymnDealt,
    HymnDrawn,
    HymnLearned,
    HymnSung,
    MercenaryBought,
    Put,
    TurnOrderRolled,
    ZodiacResolved,
    ZodiacRolled,
)
from rulesets.mercenarium.state import (
    State,
    at,
    clash,
    contract_of,
    house,
    in_play,
    over_limits,
    player,
    unspent,
)
from rulesets.registry import Rules
from tests.golden_support import fix_references

HERE = Path(__file__).parent / "golden"
GAMES = {"mercenarium-2p": (("red", "yellow"), 20), "mercenarium-4p": (("red", "orange", "yellow", "green"), 22)}
"""Golden full games: name -> (seats, seed of a heuristic-bot game)."""
MISTAKES_SEATS = ("red", "orange", "yellow", "green")
MISTAKES_SEED = 0
MISTAKES = ("mercenarium/summon.orthogonal", "mercenarium/capture.aura", "mercenarium/buy.contract",
            "mercenarium/hand.limit", "mercenarium/buy.mercenary")
"""The table mistakes the mistakes log makes, each once: a diagonal summon, a capture through a
stronger edge, buying a Mercenary under contract, a sixth card kept, a Lord bought."""


def rules() -> Rules:
    """The one version."""
    return registry.resolve("mercenarium")


def log_path(name: str) -> Path:
    """Where a golden log lives."""
    return HERE / f"{name}.jsonl"


def read_log(name: str) -> list[Event]:
    """Decode a golden log with Mercenarium's codec."""
    lines = log_path(name).read_bytes().splitlines()
    return list(decode_log(lines, registry.game("mercenarium").codec, where=str(log_path(name))))


def write_log(name: str, events: list[Event]) -> None:
    """Write a log as JSON lines."""
    log_path(name).write_bytes(b"".join(msgspec.json.encode(e) + b"\n" for e in events))


def transcript_path(name: str) -> Path:
    """Where a golden transcript lives."""
    return HERE / f"{name}.transcript"


def what(event: Event) -> str:
    """The event's own facts in a few characters: `7B@3,6`, `LC x AS`, `draw 9S`."""
    match event:
        case CardSummoned(card=card, space=space):
            return f"{card}@{space[0]},{space[1]}"
        case CardMoved(card=card, to=to):
            return f"{card}>{to[0]},{to[1]}"
        case CardCaptured(card=card, target=target):
            return f"{card} x {target}"
        case CardsAnnihilated(card=card, target=target):
            return f"{card} ~ {target}"
        case MercenaryBought(card=card, capture=capture):
            return f"{card} for {capture or '?'}"
        case HymnSung(hymn=hymn, puts=puts):
            return f"{hymn}" + "".join(f" {p.card}>{p.to}" for p in puts)
        case HymnLearned(offering=offering, captures=captures):
            return "+".join((*offering, *(f"cap {c}" for c in captures)))
        case DrawDeclared(discard=discard):
            return f"discard {discard}" if discard else ""
        case CardDrawn(seat=seat, card=card):
            return f"{seat} {card}"
        case HymnDealt(seat=seat, hymn=hymn) | HymnDrawn(seat=seat, hymn=hymn):
            return f"{seat} {hymn}"
        case TurnOrderRolled(seat=seat, die=die, face=face):
            return f"{seat} {die} {face}"
        case ZodiacRolled(value=value):
            return str(value)
        case ZodiacResolved(hymn=hymn):
            return hymn
        case ExtrasReturned(cards=returned):
            return " ".join(returned)
    seat, card = getattr(event, "seat", None), getattr(event, "card", None)
    return f"{seat} {card}" if seat and card else ""


def transcript(events: list[Event], rules_: Rules) -> str:
    """One line per event: seq, type, actor, facts, turn, phase and captures; each violation; the audit.

    The rules fingerprint note is left out: it changes with every edit of the code and says
    nothing about the game.
    """
    out = []
    ruleset = rules_.ruleset
    for step in replay(events, rules_):
        event = step.event
        progress = ruleset.progress(rules_.params, step.state)
        state: State = step.state
        caps = "-".join(str(len(p.captures)) for p in state.players)
        line = (f"{event.seq:>5} {type(event).__name__:<16} by={event.by or '-':<6} {what(event):<22} "
                f"turn={progress.turn:<3} phase={progress.phase:<11} captures={caps}")
        out.append(line.rstrip())
        out += [f"      ! {v.severity} {v.rule}: {v.message}" for v in step.violations if v.rule != "core/rules-changed"]
    report = audit(events, rules_)
    out.append(f"result: {report.result.message} ({'agrees' if report.result.agrees else 'WRONG'})")
    return "\n".join(out) + "\n"


# --- the playtest with mistakes ------------------------------------------------------------------------


def mistakes_game(seed: int = MISTAKES_SEED) -> list[Event]:
    """A 4-player game in which the table makes each listed mistake once, then plays on.

    The heuristic bot plays; when a position allows a mistake not yet made, the table makes
    it instead. Besides the five mistakes: a move taken back at once (Retracted), a lost
    hymn sung with its changes recorded (audited as unchecked, not as an error), a table
    ruling, and the wrong winner declared.
    """
    r = rules()
    ruleset = r.ruleset
    rng = random.Random(seed)
    started = MatchStarted(seq=0, at=SIM_EPOCH, match_id="mercenarium-mistakes", ruleset="mercenarium", version="1.0",
                           seats={s: f"{s} player" for s in MISTAKES_SEATS}, source="playtest",
                           title="Friday playtest (with table mistakes)", fingerprint=ruleset.fingerprint)
    events: list[Event] = [started]
    state = ruleset.setup(r.params, started)
    made: set[str] = set()
    bot = ruleset.bots["heuristic"]
    while ruleset.outcome(r.params, state) is None and len(events) < 3000:
        outcomes = ruleset.chance(r.params, state)
        if outcomes is not None:
            batch = [rng.choices([e for e, _ in outcomes], weights=[w for _, w in outcomes])[0]]
        else:
            batch = _mistake(r, state, made) or [bot(r.params, state, list(ruleset.legal(r.params, state)), rng)]
        for event in fix_references([msgspec.structs.replace(e, seq=len(events) + i, at=SIM_EPOCH + SIM_STEP * (len(events) + i))
                                      for i, e in enumerate(batch)]):
            events.append(event)
            if isinstance(event, Retracted):
                state = _undo(r, events)
            elif not isinstance(event, Ruled):
                state = ruleset.apply(r.params, state, event)
    missing = {"diagonal", "weaker", "contract", "sixth", "lord", "retract", "hymn"} - made
    assert not missing, missing
    result = ruleset.outcome(r.params, state)
    assert result is not None and result.winner is not None
    wrong = next(s for s in MISTAKES_SEATS if s != result.winner)
    events.append(MatchEnded(seq=len(events), at=SIM_EPOCH + SIM_STEP * len(events), winner=wrong,
                             reason="the table counted a spent capture twice"))
    return events


def _undo(r: Rules, events: list[Event]) -> State:
    """The state the replay reaches (a Retracted voids the event before it)."""
    return list(replay(events, r, audit=False))[-1].state


def _mistake(r: Rules, state: State, made: set[str]) -> list[Event] | None:
    """The first mistake the position allows that the table has not made yet."""
    params = r.params
    seat = state.current
    p = player(state, seat)
    if state.stage != "play" or state.pending or p is None or seat is None:
        return None
    if any(over_limits(params, state, s) and s not in state.noted for s in state.seats):
        return None
    for kind, make in (("weaker", _weaker_capture), ("contract", _contract_buy), ("lord", _lord_buy),
                       ("diagonal", _diagonal_summon), ("sixth", _sixth_card), ("hymn", _lost_hymn)):
        if kind not in made and (batch := make(r, state, seat)):
            made.add(kind)
            if kind == "diagonal" and "retract" not in made:  # noticed at once the first time: undone, then made again later
                made.add("retract")
                made.discard("diagonal")
                return [batch[0], Retracted(by=seat, target_seq=-1, reason="summoned diagonally by mistake")]
            return batch
    return None


def _weaker_capture(r: Rules, state: State, seat: str) -> list[Event] | None:
    for piece in in_play(state, seat):
        for _, near in board.neighbours(piece.space, r.params.board_size):
            enemy = at(state, near)
            if enemy is not None and enemy.owner != seat and clash(r.params, state, piece, enemy).kind == "weaker":
                return [CardCaptured(by=seat, card=piece.card, target=enemy.card)]
    return None


def _contract_buy(r: Rules, state: State, seat: str) -> list[Event] | None:
    p = player(state, seat)
    if p is None or not unspent(p):
        return None
    for piece in state.board:
        holder = contract_of(state, piece.card)
        if piece.owner != seat and holder is not None and holder != seat:
            return [MercenaryBought(by=seat, card=piece.card, capture=unspent(p)[0])]
    return None


def _lord_buy(r: Rules, state: State, seat: str) -> list[Event] | None:
    p = player(state, seat)
    if p is None or not unspent(p):
        return None
    for piece in state.board:
        found = cards.card(piece.card)
        if piece.owner != seat and found is not None and found.lord:
            return [MercenaryBought(by=seat, card=piece.card, capture=unspent(p)[0])]
    return None


def _diagonal_summon(r: Rules, state: State, seat: str) -> list[Event] | None:
    p = player(state, seat)
    if p is None or not p.hand:
        return None
    own = {x.space for x in in_play(state, seat)}
    for space in sorted(own):
        for dc, dr in ((1, -1), (-1, -1), (1, 1), (-1, 1)):
            corner = (space[0] + dc, space[1] + dr)
            beside = {near for _, near in board.neighbours(corner, r.params.board_size)}
            if (board.on_board(corner, r.params.board_size) and at(state, corner) is None and not beside & own
                    and corner != house(r.params, seat)):
                return [CardSummoned(by=seat, card=p.hand[0], space=corner)]
    return None


def _sixth_card(r: Rules, state: State, seat: str) -> list[Event] | None:
    p = player(state, seat)
    if p is None or len(p.hand) != r.params.hand_limit or not state.deck or state.singularity:
        return None
    return [DrawDeclared(by=seat)]


def _lost_hymn(r: Rules, state: State, seat: str) -> list[Event] | None:
    """A lost hymn sung: the table records that it brought one card from the deck to the hand
    (a fact of the table, not tabletape's guess at the hymn)."""
    p = player(state, seat)
    if p is None or not p.hymns or p.hymns[0] == cards.ZODIAC or len(p.hand) >= r.params.hand_limit or not state.deck:
        return None
    return [HymnSung(by=seat, hymn=p.hymns[0], puts=(Put(card=state.deck[0], to="hand", seat=seat),)),
            Ruled(rule="mercenarium/hymns.effect", decision=f"hymn {p.hymns[0]} read from the table's printed card", applies_to=-1)]






def regenerate(record_logs: bool) -> None:
    """Rewrite transcripts (and with `record_logs`, the logs themselves)."""
    HERE.mkdir(exist_ok=True)
    r = rules()
    if record_logs:
        for name, (seats, seed) in GAMES.items():
            write_log(name, play(r, {s: f"{s} player" for s in seats}, seed=seed, bot="heuristic", match_id=f"golden-{name}"))
        write_log("mercenarium-mistakes", mistakes_game())
    for name in [*GAMES, "mercenarium-mistakes"]:
        transcript_path(name).write_text(transcript(read_log(name), r))


if __name__ == "__main__":
    regenerate(record_logs="--logs" in sys.argv)
