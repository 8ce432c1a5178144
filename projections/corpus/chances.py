"""Win chances along a match: from each decision point, the game's bots play the rest out.

A designer watching a replay asks where the game was decided. The match is folded once;
at each decision point (every turn start, or every event) its state is kept, and the
game's bots play the rest of the game out from there `rollouts` times, each game from its
own seed, so the same request gives the same curve. A seat's chance to win at a point is
the share of those games it won, with a 95% Wilson interval.

Played to the end, a curve costs every remaining move of the game from every point. Two
options make it cheap enough to ask for while a designer watches, both said on the chart:
a `horizon` plays each game only so many rounds ahead and scores the state it reached by
a model of the game's metrics fitted once on simulated games (`projections.corpus.winmodel`;
a game that ended scores its result, and a game without metrics is played to the end), and
a `precision` stops playing on from a point once its 95% interval is that narrow. Both
keep a curve seeded: the games from a point are played in fixed batches, and whether the
next batch is played depends only on the batches before it.

The bots play from the whole state, hidden cards and the deck's order included: a chance
says what the table's position was worth to players who could see everything, which is
why only a token that may see the whole table may ask for one over HTTP.

Rollouts are spread as simulation is (`projections.corpus.pool`: this process, local workers or
a Dask cluster), each task a point's state and its seeds, and a result is kept in the
store's result cache under the log's last line, the rules' fingerprint and the request.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

import msgspec

from events.errors import TabletapeError
from events.shared import MatchStarted
from projections.corpus.pool import ordered_map, without_cycle_collector
from projections.corpus.simulate import bot_name, game_seed, play_ahead
from projections.corpus.winmodel import FIT_GAMES, WinModel, has_metrics, match_model, win_model
from projections.read.replay import replay
from projections.read.words import words
from projections.resultcache import ResultCache
from projections.workspace import Workspace
from rulesets.registry import Rules, RulesRef

if TYPE_CHECKING:
    from projections.stats.verdicts import Verdict

Every = Literal["turn", "event"]
EVERY: tuple[Every, ...] = ("turn", "event")
FITS = ("rules", "match")
"""What a horizon's scoring model is fitted on: games from the start under these rules (kept
for every match of them), or games played to the end from this match's own points."""
"""Where a curve has its points: at each turn start (and the first and last event), or at every event."""

DEFAULT_ROLLOUTS = 200
PER_TASK = 50
"""Rollouts from one point handed to a worker at most: a point's games spread over the
workers when there are few points, and progress moves while a long point is played."""
STEP = 25
"""Games per batch from one point when stopping early: the fewest a point is ever judged by."""
MAX_HORIZON = 100
DECIDED = 0.9
"""A game is decided from the point where its winner's chance stays at or above this."""
SWING = 0.05
"""A change in a seat's chance smaller than this is not a turning point: rollout noise."""
HIDDEN = "the bots saw the whole table, hidden cards included"
CACHE_KIND = "chances"
CACHE_FOLDER = "cache"
"""The store's folder of results kept between processes (`projections.resultcache`)."""
Progress = Callable[[int, int], None]
"""Called as progress(rollouts done, rollouts in all)."""


class ChancesError(TabletapeError):
    """A curve that could not be computed (no bots, a bad request, a worker lost)."""


class Point(msgspec.Struct, frozen=True, kw_only=True):
    """A decision point of the match and how the games played on from it ended."""

    seq: int
    """The event after which the state was taken."""
    turn: int
    said: str
    """The event at `seq` in the game's words."""
    wins: dict[str, float]
    """Games won per seat (every seat listed, a seat that won none at 0); a game stopped at
    the horizon adds each seat's modelled chance from where it stopped."""
    squares: dict[str, float] = {}
    """Per seat, the sum of each game's squared share: the spread of scored games."""
    scored: int = 0
    """Games stopped at the horizon and scored by the model rather than played to the end."""
    draws: int = 0
    unfinished: int = 0
    """Games that had not ended when the move limit came, or where no one could move."""
    rollouts: int
    exact: bool = False
    """The game was already over here: the result is the rules', not played out."""


class Chance(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's chance to win at one point, with its 95% interval."""

    seq: int
    turn: int
    seat: str
    chance: float
    low: float
    high: float
    rollouts: int = 0
    """Games played on from this point (fewer than asked where it stopped early)."""


class Swing(msgspec.Struct, frozen=True, kw_only=True):
    """A turning point: the events between two points that moved a seat's chance most."""

    seq: int
    """The first event of the stretch (where the replay is opened)."""
    to_seq: int
    """The last event of the stretch, where the later chance was taken."""
    seat: str
    before: float
    after: float
    said: str
    """What happened, in the game's words."""

    @property
    def change(self) -> float:
        """How far the seat's chance moved (negative: it fell)."""
        return self.after - self.before

    def sentence(self) -> str:
        """`Seiren captures the Bone Field altar: blue 38% → 71%`."""
        return f"{self.said}: {self.seat} {_percent(self.before)} → {_percent(self.after)}"


class TurningPoint(msgspec.Struct, frozen=True, kw_only=True):
    """A turning point as an answer carries it: the swing, its sentence and where to see it."""

    seq: int
    to_seq: int
    seat: str
    before: float
    after: float
    sentence: str
    link: str
    """The Replay page at the stretch's first event."""


class Curve(msgspec.Struct, frozen=True, kw_only=True):
    """A match's win chances as the command line's JSON and the HTTP service give them."""

    match_id: str
    rules: str
    bot: str
    rollouts: int
    every: str
    seed: int
    played_by: str
    """Who played the games out and what they saw (the chart's caption)."""
    cached: bool
    horizon: int | None
    """Rounds each game was played ahead before it was scored; None: to the end."""
    precision: float | None
    games: int
    """Games played on in all (fewer than asked where points stopped early)."""
    model_games: int
    """Simulated games the scoring model was fitted on (0: none, games played to the end)."""
    summary: list[str]
    decided_at: int | None
    lead_changes: int
    curve: list[Chance]
    turning_points: list[TurningPoint]


class Chances(msgspec.Struct, kw_only=True):
    """The win chances of every seat along one match."""

    match_id: str
    rules: str
    """The rules the match was read and played on under (`mortalgate@2.5`)."""
    bot: str
    rollouts: int
    every: Every
    seed: int
    seats: list[str]
    last_seq: int
    points: list[Point]
    said: dict[int, str] = {}
    """Every event in the game's words, by seq (what a turning point says)."""
    seconds: float = 0.0
    games: int = 0
    """Games played out (exact points play none)."""
    moves: int = 0
    """Events those games played, in all."""
    workers: str = ""
    cached: bool = False
    """Read from the result cache rather than played out."""
    horizon: int | None = None
    """Rounds each game was played ahead before it was scored; None: to the end."""
    precision: float | None = None
    """Half-width (in points) of the 95% interval at which a point stopped being played on."""
    model_games: int = 0
    """Simulated games the scoring model was fitted on (0: no model, games played to the end)."""
    fit: str = "rules"
    fit_points: int = 0
    """With `fit` "match": the points of this match the model's games were played on from."""
    unscored: str = ""
    """Why a horizon was asked for but every game was played to its end."""
    fit_seconds: float = 0.0

    @property
    def played_by(self) -> str:
        """The line every chart carries: who played the games out, how far, and what they saw."""
        where = "turn start" if self.every == "turn" else "event"
        upto = "up to " if self.precision is not None else ""
        said = [f"{upto}{self.rollouts} games played on from each {where} by {self.bot} bots (seed {self.seed})"]
        if self.horizon is not None and self.model_games:
            source = (f"{self.model_games} games played to the end from {self.fit_points} of this match's points"
                      if self.fit == "match" else f"{self.model_games} simulated games")
            said.append(f"played {self.horizon} round{'s' if self.horizon != 1 else ''} ahead, then scored by a model "
                        f"fitted on {source} (a game that ended scores its result)")
        elif self.unscored:
            said.append(f"played to the end: {self.unscored}")
        if self.precision is not None:
            planned = self.rollouts * sum(not p.exact for p in self.points)
            said.append(f"a {where} stopped once its 95% interval was within {self.precision:g} points: "
                        f"{self.games:,} of {planned:,} games played")
        return "; ".join([*said, HIDDEN])

    def curve(self) -> list[Chance]:
        """Every seat's chance at every point, with its 95% interval."""
        out = []
        for point in self.points:
            for seat in self.seats:
                value, low, high = interval(point, seat)
                out.append(Chance(seq=point.seq, turn=point.turn, seat=seat, chance=value, low=low, high=high,
                                  rollouts=point.rollouts))
        return out

    def share(self, point: Point, seat: str) -> float:
        """A seat's share of the games played on from a point."""
        return point.wins.get(seat, 0) / point.rollouts if point.rollouts else 0.0

    def turning_points(self, count: int = 5) -> list[Swing]:
        """The stretches between two points that moved a seat's chance most (by at least
        `SWING`), biggest first, each told from the side of the seat it favoured."""
        swings = []
        for before, after in zip(self.points, self.points[1:], strict=False):
            seat = max(self.seats, key=lambda s: (abs(self.share(after, s) - self.share(before, s)), self.share(after, s)))
            moved = self.share(after, seat) - self.share(before, seat)
            if abs(moved) < SWING:
                continue
            if moved < 0 and len(self.seats) == 2:  # a seat's loss is the other's gain: say who gained
                seat = next(s for s in self.seats if s != seat)
            swings.append(Swing(seq=before.seq + 1, to_seq=after.seq, seat=seat, before=self.share(before, seat),
                                after=self.share(after, seat), said=self._stretch(before.seq + 1, after.seq, after.turn)))
        swings.sort(key=lambda s: (-abs(s.change), s.seq))
        return swings[:count]

    def _stretch(self, first: int, last: int, turn: int) -> str:
        """The events of a stretch in the game's words: one event as it is, a turn's events
        joined, the first three of a long one."""
        said = [_short(self.said.get(seq, f"event {seq}")) for seq in range(first, last + 1)]
        if len(said) == 1:
            return said[0]
        shown = "; ".join(said[:3]) + ("; ..." if len(said) > 3 else "")
        return f"events {first}-{last} (to turn {turn}): {shown}"

    def winner(self) -> str | None:
        """The seat the rules say won at the last point, if the game was over there; else
        the seat most likely to win there."""
        if not self.points:
            return None
        last = self.points[-1]
        best = max(self.seats, key=lambda s: last.wins.get(s, 0), default=None)
        return best if best is not None and last.wins.get(best, 0) > 0 else None

    def decided_at(self) -> int | None:
        """The seq of the first point from which the winner's chance stays at or above
        `DECIDED` to the end; None if it never does."""
        winner = self.winner()
        if winner is None:
            return None
        decided = None
        for point in self.points:
            if self.share(point, winner) >= DECIDED:
                decided = point.seq if decided is None else decided
            else:
                decided = None
        return decided

    def decided_share(self) -> float | None:
        """How far into the match (0 to 1, by events) it was decided."""
        decided = self.decided_at()
        return None if decided is None or not self.last_seq else decided / self.last_seq

    def lead_changes(self) -> int:
        """How often the seat most likely to win changed from one point to the next (a tie
        keeps the lead where it was)."""
        changes, leader = 0, None
        for point in self.points:
            ranked = sorted(self.seats, key=lambda s: -point.wins.get(s, 0))
            if len(ranked) > 1 and point.wins.get(ranked[0], 0) == point.wins.get(ranked[1], 0):
                continue
            if leader is not None and ranked[0] != leader:
                changes += 1
            leader = ranked[0]
        return changes

    def summary(self) -> list[str]:
        """What a designer reads first: when the game was decided, how often the lead changed."""
        out = []
        share, winner = self.decided_share(), self.winner()
        if share is None:
            out.append("Not decided before the end: no seat's chance stayed at 90% or more.")
        elif share <= 0.25:
            out.append(f"Decided in its first quarter: {winner}'s chance stayed at 90% or more from event "
                       f"{self.decided_at()} of {self.last_seq} (a runaway leader).")
        else:
            out.append(f"Decided at event {self.decided_at()} of {self.last_seq} ({share:.0%} of the way in): "
                       f"{winner}'s chance stayed at 90% or more from there.")
        out.append(f"The seat most likely to win changed {self.lead_changes()} time(s).")
        return out

    def answer(self) -> Curve:
        """The curve, its summary and its turning points as plain data."""
        return Curve(match_id=self.match_id, rules=self.rules, bot=self.bot, rollouts=self.rollouts, every=self.every,
                     seed=self.seed, played_by=self.played_by, cached=self.cached, horizon=self.horizon,
                     precision=self.precision, games=self.games, model_games=self.model_games, summary=self.summary(),
                     decided_at=self.decided_at(), lead_changes=self.lead_changes(), curve=self.curve(),
                     turning_points=[TurningPoint(seq=s.seq, to_seq=s.to_seq, seat=s.seat, before=s.before, after=s.after,
                                                  sentence=s.sentence(), link=replay_link(self.match_id, s.seq))
                                     for s in self.turning_points()])

    def lines(self, *, link: Callable[[int], str] | None = None) -> list[str]:
        """The curve as text for the command line: a row per point, then the turning points."""
        cached = " (from the cache)" if self.cached else f" in {self.seconds:.1f} s on {self.workers}"
        out = [f"{self.match_id} under {self.rules}: win chances{cached}", self.played_by, *self.summary(), ""]
        games = self.precision is not None  # points played on for different numbers of games: show each one's
        out.append(f"{'event':>6} {'turn':>5}  " + (f"{'games':>5}  " if games else "")
                   + "  ".join(f"{seat:>20}" for seat in self.seats))
        curve = {(c.seq, c.seat): c for c in self.curve()}
        for point in self.points:
            cells = [curve[point.seq, seat] for seat in self.seats]
            out.append(f"{point.seq:>6} {point.turn:>5}  " + (f"{point.rollouts:>5}  " if games else "") + "  ".join(
                f"{_percent(c.chance):>5} ({_percent(c.low)}-{_percent(c.high)})".rjust(20) for c in cells))
        swings = self.turning_points()
        if swings:
            out += ["", "Turning points:"]
            for swing in swings:
                where = f"  {link(swing.seq)}" if link else ""
                out.append(f"- event {swing.seq}: {swing.sentence()}{where}")
        return out


def cohort_measures(ws: Workspace, match_ids: Sequence[str], *, rollouts: int, every: str = "turn", bot: str | None = None,
                    seed: int = 1, workers: int | None = None, scheduler: str | None = None) -> list[tuple[float, float]]:
    """Per match: how far into it it was decided (1.0: not before its end) and how often
    the seat most likely to win changed, from its win chances."""
    out = []
    for match_id in match_ids:
        found = chances(ws, match_id, rollouts=rollouts, every=every, bot=bot, seed=seed, workers=workers, scheduler=scheduler)
        share = found.decided_share()
        out.append((1.0 if share is None else share, float(found.lead_changes())))
    return out


def chance_verdicts(ws: Workspace, a: Sequence[str], b: Sequence[str], *, paired: bool, rollouts: int, every: str = "turn",
                    bot: str | None = None, seed: int = 1, workers: int | None = None, scheduler: str | None = None,
                    detect: float = 0.05) -> list[Verdict]:
    """How early games are decided and how often the likely winner changes, for the matches
    of two versions (`paired`: match i of both was played from the same seed), each with its
    interval; not yet corrected for the other measures of a comparison (`verdicts.holm`)."""
    from projections.stats.verdicts import chance_lead_changes, decided_when

    ma = cohort_measures(ws, a, rollouts=rollouts, every=every, bot=bot, seed=seed, workers=workers, scheduler=scheduler)
    mb = cohort_measures(ws, b, rollouts=rollouts, every=every, bot=bot, seed=seed, workers=workers, scheduler=scheduler)
    pairs = list(zip(ma, mb, strict=False)) if paired else []
    return [decided_when([m[0] for m in ma], [m[0] for m in mb], pairs=[(x[0], y[0]) for x, y in pairs], detect=detect),
            chance_lead_changes([m[1] for m in ma], [m[1] for m in mb], pairs=[(x[1], y[1]) for x, y in pairs])]


def replay_link(match_id: str, seq: int) -> str:
    """Where the dashboard's Replay page opens this match at this event."""
    return f"/replay?match={quote(match_id)}&at={seq}"


def _short(said: str, most: int = 80) -> str:
    return said if len(said) <= most else said[:most - 3].rstrip() + "..."


def apart(curves: Sequence[Chances], shared: int) -> list[str]:
    """How each of two lines of play (a branch and its parent) stands once it has left the
    other: each seat's chance at the last point both share, then at each line's first point
    after it and at its end, with 95% intervals."""

    def seats(curve: Chances, point: Point) -> str:
        chances = {c.seat: c for c in curve.curve() if c.seq == point.seq}
        return ", ".join(f"{seat} {_percent(c.chance)} ({_percent(c.low)}-{_percent(c.high)})"
                         for seat, c in chances.items())

    first = curves[0]
    before = [point for point in first.points if point.seq <= shared]
    lines = [f"both lines after event {before[-1].seq}: {seats(first, before[-1])}"] if before else []
    for curve in curves:
        after = [point for point in curve.points if point.seq > shared]
        if not after:
            lines.append(f"{curve.match_id}: no decision point after event {shared}")
            continue
        lines.append(f"{curve.match_id} after event {after[0].seq}: {seats(curve, after[0])}")
        if after[-1] is not after[0]:
            lines.append(f"{curve.match_id} at its end (event {after[-1].seq}): {seats(curve, after[-1])}")
    return lines


def _percent(x: float) -> str:
    return f"{x:.0%}"


def interval(point: Point, seat: str) -> tuple[float, float, float]:
    """A seat's chance at a point with its 95% interval: Wilson's where every game was
    played to its end (each a win or not), a t interval over the games' shares where some
    were scored by the model (each a share between 0 and 1)."""
    n, won = point.rollouts, point.wins.get(seat, 0)
    if not n:
        return math.nan, math.nan, math.nan
    if not point.scored:
        from projections.stats.verdicts import wilson  # statistics: loaded only for a curve

        estimate = wilson(round(won), n)  # 100% stays inside its rounded bounds
        return estimate.value, min(estimate.low, estimate.value), max(estimate.high, estimate.value)
    from scipy import stats

    mean = won / n
    spread = max(point.squares.get(seat, 0.0) - n * mean * mean, 0.0) / (n - 1) if n > 1 else 0.25
    half = float(stats.t.ppf(0.975, max(n - 1, 1))) * math.sqrt(spread / n)
    return mean, max(mean - half, 0.0), min(mean + half, 1.0)


def narrow(point: Point, seats: Sequence[str], precision: float) -> bool:
    """Whether every seat's 95% interval at the point is within `precision` points of its chance."""
    for seat in seats:
        value, low, high = interval(point, seat)
        if max(value - low, high - value) * 100 > precision:
            return False
    return True


def parse_horizon(text: str | int | None) -> int | None:
    """`full` (or nothing): games played to the end; else a whole number of rounds."""
    if text is None or str(text).strip().lower() == "full":
        return None
    try:
        rounds = int(str(text).strip())
    except ValueError:
        rounds = 0
    if not 1 <= rounds <= MAX_HORIZON:
        raise ChancesError(f"--horizon must be `full` or a number of rounds from 1 to {MAX_HORIZON}, not {text!r}")
    return rounds


class Rollouts(msgspec.Struct, frozen=True, kw_only=True):
    """Games to play on from one point: everything a worker needs, nothing it must look up."""

    rules: RulesRef
    bot: str
    seq: int
    state: Any
    seeds: list[int]
    max_events: int
    horizon: int | None = None
    model: WinModel | None = None


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """What a batch of games from one point came to (a worker's answer)."""

    wins: dict[str, float]
    squares: dict[str, float]
    draws: int
    unfinished: int
    scored: int
    moves: int


@without_cycle_collector
def play_on(task: Rollouts) -> Played:
    """Play a point's games on (runs in a worker): wins per winner (a game stopped at the
    horizon adds each side's modelled share), draws, unfinished, and the events played in all."""
    rules = task.rules.rules()
    rounds = task.horizon if task.model is not None else None
    wins: dict[str, float] = {}
    squares: dict[str, float] = {}
    draws = unfinished = scored = moves = 0
    for seed in task.seeds:
        try:
            result, ended, state = play_ahead(rules, task.state, seed=seed, bot=task.bot, seq=task.seq,
                                              max_events=task.max_events, rounds=rounds)
            shares = (task.model.score(rules, state) if task.model is not None and result is None and ended < task.max_events
                      else None)
        except Exception as error:  # a bot or the rules failing from a position the table reached
            raise ChancesError(f"the {task.bot} bots could not play on from event {task.seq} "
                               f"({type(error).__name__}: {error})") from None
        moves += ended - task.seq
        if shares is not None and task.model is not None:  # stopped at the horizon (or no one could move): scored
            scored += 1
            for side, share in zip(task.model.seats, shares, strict=True):
                wins[side] = wins.get(side, 0.0) + share
                squares[side] = squares.get(side, 0.0) + share * share
        elif result is None:
            unfinished += 1
        elif result.draw or result.winner is None:
            draws += 1
        else:
            wins[result.winner] = wins.get(result.winner, 0) + 1
            squares[result.winner] = squares.get(result.winner, 0) + 1
    return Played(wins=wins, squares=squares, draws=draws, unfinished=unfinished, scored=scored, moves=moves)


def decision_points(events: Sequence[Any], rules: Rules, every: Every) -> tuple[list[tuple[int, int, Any]], dict[int, str]]:
    """(seq, turn, state) at each decision point, from one fold of the log, and every
    event in the game's words: line 0, each turn start (or each event), and the last event."""
    ruleset, params = rules.ruleset, rules.params
    points: list[tuple[int, int, Any]] = []
    said: dict[int, str] = {}
    before: Any = None
    turn, last = None, (0, 0, None)
    for step in replay(events, rules, audit=False):
        seq = step.event.seq
        said[seq] = words(rules, before, step.event)
        before = step.state
        now = ruleset.progress(params, step.state).turn
        if every == "event" or now != turn or seq == 0:
            points.append((seq, now, step.state))
        turn, last = now, (seq, now, step.state)
    if points and points[-1][0] != last[0]:
        points.append(last)
    return points, said


def chances(ws: Workspace, match_id: str, *, rollouts: int = DEFAULT_ROLLOUTS, every: str = "turn", bot: str | None = None,
            seed: int = 1, workers: int | None = None, scheduler: str | None = None, max_events: int = 20_000,
            horizon: int | str | None = None, precision: float | None = None, fit: str = "rules",
            fit_games: int = FIT_GAMES, progress: Progress | None = None) -> Chances:
    """Each seat's chance to win along the match, `rollouts` games played on from each
    decision point (`horizon` rounds ahead, then scored, or to the end; with `precision`,
    only until a point's interval is that narrow); read from the result cache when the same
    log, rules and request were played out before."""
    if every not in EVERY:
        raise ChancesError(f"--every must be one of {', '.join(EVERY)}, not {every!r}")
    if not 1 <= rollouts <= 100_000:
        raise ChancesError(f"--rollouts must be between 1 and 100000, not {rollouts}")
    if precision is not None and not 0 < precision <= 50:
        raise ChancesError(f"--precision must be a number of points above 0 and at most 50, not {precision:g}")
    rounds = parse_horizon(horizon)
    if fit not in FITS:
        raise ChancesError(f"--fit must be one of {', '.join(FITS)}, not {fit!r}")
    precision = None if precision is None else float(precision)  # 5 and 5.0 are the same request
    header = ws.header(match_id)
    rules = ws.rules_of_header(header)
    try:
        bot = bot_name(rules.ruleset, bot)
    except TabletapeError as error:
        raise ChancesError(str(error)) from None
    seq, head = ws.store.last(match_id)
    key: tuple[str, ...] = (head, str(seq), rules.ruleset.fingerprint, rules.spec,
                            msgspec.json.encode(dict(rules.overrides)).decode(), bot, str(rollouts), every, str(seed),
                            str(max_events))
    if rounds is not None or precision is not None:
        key += (f"horizon={rounds}", f"precision={precision}", f"step={STEP}", f"fit={fit_games}")
        key += (f"fit-on={fit}",) if fit != "rules" else ()
    cache = ResultCache(ws.home / CACHE_FOLDER)
    if (kept := cache.get(CACHE_KIND, key)) is not None:
        found = msgspec.msgpack.decode(kept, type=Chances)
        found.cached = True
        if progress is not None:
            progress(1, 1)
        return found
    found = _play_out(ws, match_id, header, rules, cache, rollouts=rollouts, every=every, bot=bot, seed=seed,
                      workers=workers, scheduler=scheduler, max_events=max_events, horizon=rounds, precision=precision,
                      fit=fit, fit_games=fit_games, progress=progress)
    cache.put(CACHE_KIND, key, msgspec.msgpack.encode(found))
    return found


def _play_out(ws: Workspace, match_id: str, header: MatchStarted, rules: Rules, cache: ResultCache, *, rollouts: int,
              every: Every, bot: str, seed: int, workers: int | None, scheduler: str | None, max_events: int,
              horizon: int | None, precision: float | None, fit: str, fit_games: int,
              progress: Progress | None) -> Chances:
    from projections.warehouse.parallel import workers_or_cores

    started = time.perf_counter()
    count = workers_or_cores(workers)
    seats = list(header.seats)
    points, said = decision_points(list(ws.events(match_id)), rules, every)
    ruleset, params = rules.ruleset, rules.params
    model, unscored, fit_seconds, fit_points = None, "", 0.0, 0
    if horizon is not None:
        fitting = time.perf_counter()
        if fit == "match":
            model, fit_points = match_model(rules, seats, [(seq, state) for seq, _, state in points
                                                           if ruleset.outcome(params, state) is None],
                                            bot=bot, seed=seed, workers=count, scheduler=scheduler, error=ChancesError,
                                            max_events=max_events, games=fit_games)
        else:
            model = win_model(rules, seats, bot=bot, cache=cache, workers=count, scheduler=scheduler,
                              error=ChancesError, games=fit_games)
        fit_seconds = time.perf_counter() - fitting
        if model is None:
            unscored = (f"{rules.ruleset.name} has no metrics to score a position by" if not has_metrics(rules) else
                        f"its {fit_games} fit games never had two different winners to fit a model on")
    exact: dict[int, Point] = {}
    open_: dict[int, Any] = {}
    for seq, turn, state in points:
        result = ruleset.outcome(params, state)
        if result is not None:  # over here: the rules say who won, nothing to play out
            wins: dict[str, float] = {seat: 0 for seat in seats}
            if result.winner is not None and not result.draw:
                wins[result.winner] = rollouts
            exact[seq] = Point(seq=seq, turn=turn, said=said[seq], wins=wins, draws=rollouts if result.draw else 0,
                               rollouts=rollouts, exact=True)
        else:
            open_[seq] = state
    turns = {seq: turn for seq, turn, _ in points}
    step = PER_TASK if precision is None else STEP
    kept: dict[int, Point] = {seq: Point(seq=seq, turn=turns[seq], said=said[seq], wins={}, rollouts=0) for seq in open_}
    total = rollouts * len(open_)
    done = moves = 0
    ref = RulesRef.of(rules)
    while open_:  # a wave: every point still open gets its next batch (all of them, without a precision)
        tasks = []
        for seq, state in open_.items():
            first = kept[seq].rollouts
            last = rollouts if precision is None else min(first + step, rollouts)
            seeds = [game_seed(game_seed(seed, seq), i) for i in range(first, last)]
            tasks += [Rollouts(rules=ref, bot=bot,
                               seq=seq, state=state, seeds=seeds[i:i + PER_TASK], max_events=max_events,
                               horizon=horizon, model=model)
                      for i in range(0, len(seeds), PER_TASK)]
        for task, played in zip(tasks, ordered_map(play_on, tasks, workers=count, scheduler=scheduler,
                                                   error=ChancesError, work="rollout", lost="no chances were kept"),
                                strict=True):
            kept[task.seq] = _add(kept[task.seq], played, len(task.seeds))
            done += len(task.seeds)
            moves += played.moves
            if progress is not None:
                progress(done, total)
        for seq in list(open_):
            point = kept[seq]
            if point.rollouts >= rollouts or (precision is not None and narrow(point, seats, precision)):
                total -= rollouts - point.rollouts
                del open_[seq]
    out = []
    for seq, _turn, _ in points:
        if seq in exact:
            out.append(exact[seq])
            continue
        point = kept[seq]
        out.append(msgspec.structs.replace(point, wins={seat: point.wins.get(seat, 0) for seat in seats} | point.wins))
    return Chances(match_id=match_id, rules=rules.spec, bot=bot, rollouts=rollouts, every=every, seed=seed, seats=seats,
                   last_seq=points[-1][0] if points else 0, points=out, said=said, seconds=time.perf_counter() - started,
                   games=done, moves=moves, workers=f"dask {scheduler}" if scheduler else f"{count} local process(es)",
                   horizon=horizon, precision=precision, model_games=model.games if model is not None else 0,
                   fit=fit, fit_points=fit_points, unscored=unscored, fit_seconds=fit_seconds)


def _add(point: Point, played: Played, games: int) -> Point:
    """A point's tally with one more batch of its games."""
    wins, squares = dict(point.wins), dict(point.squares)
    for seat, n in played.wins.items():
        wins[seat] = wins.get(seat, 0) + n
    for seat, n in played.squares.items():
        squares[seat] = squares.get(seat, 0) + n
    return msgspec.structs.replace(point, wins=wins, squares=squares, draws=point.draws + played.draws,
                                   unfinished=point.unfinished + played.unfinished, scored=point.scored + played.scored,
                                   rollouts=point.rollouts + games)
