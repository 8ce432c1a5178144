"""A position's worth to each seat, read from the game's own metrics.

A win chance played to the end of the game costs the rest of the game's moves at every
point. Played only a round or two ahead, the state reached is scored instead: by a
multinomial logistic regression over the game's `metrics` (and the round, and each metric
times the round, since a lead counts for more late), fitted once per rules fingerprint,
bot and seating from games the bots play from the start, with the winner of each game as
the label of every turn start in it. The fit is a pure result: it is kept in the store's
result cache under what it was computed from, and the same request fits the same model.

A game whose `metrics` say nothing, or whose simulated games never had two different
winners, has no model: its chances are played to the end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from events.errors import TabletapeError
from projections.corpus.pool import ordered_map, without_cycle_collector
from projections.corpus.simulate import game_seed, play, play_ahead
from projections.read.replay import replay
from projections.resultcache import ResultCache
from rulesets.protocol import no_metrics
from rulesets.registry import Rules, RulesRef

FIT_GAMES = 120
"""Games the bots play to fit a model: about a hundred samples per feature for a game of a
dozen metrics, each game giving one sample per turn start."""
MATCH_POINTS = 12
"""Points of a match its own model is fitted from (`match_model`), spread evenly along it."""
PER_TASK = 4
"""Games one worker plays per task while fitting."""
PENALTY = 1e-3
"""Ridge penalty on the standardized weights: keeps a metric that alone separates the
winners (common near the end) from an infinite weight."""
CACHE_KIND = "winmodel"


class WinModel(msgspec.Struct, frozen=True, kw_only=True):
    """Weights per seat over standardized features; see the module."""

    seats: list[str]
    """Who can win, in the order of the chances: the seats, or their sides where the game's
    outcomes name sides."""
    names: list[str]
    """The metrics read, in feature order (a metric a state lacks reads 0)."""
    mean: list[float]
    scale: list[float]
    weights: list[list[float]]
    """Per seat: the intercept, then one weight per feature."""
    games: int
    """Games the model was fitted on (draws and unfinished games left out)."""
    samples: int

    def features(self, metrics: Mapping[str, float], round_: int) -> list[float]:
        values = [float(metrics.get(name, 0.0)) for name in self.names]
        raw = [*values, float(round_), *(v * round_ for v in values)]
        return [(x - m) / s for x, m, s in zip(raw, self.mean, self.scale, strict=True)]

    def chances(self, metrics: Mapping[str, float], round_: int) -> list[float]:
        """Each seat's modelled chance to win from a state with these metrics, in seat order."""
        x = self.features(metrics, round_)
        logits = [w[0] + sum(a * b for a, b in zip(w[1:], x, strict=True)) for w in self.weights]
        top = max(logits)
        exp = [math.exp(v - top) for v in logits]
        total = sum(exp)
        return [e / total for e in exp]

    def score(self, rules: Rules, state: Any) -> list[float]:
        return self.chances(readings(rules, state), rules.ruleset.progress(rules.params, state).round)


def readings(rules: Rules, state: Any) -> dict[str, float]:
    """What the model reads of a state: the game's metrics and, where the game has a roster,
    which side brought which piece (a hero's worth is not in the metrics until it acts)."""
    ruleset, params = rules.ruleset, rules.params
    out = dict(ruleset.metrics(params, state))
    if ruleset.roster is not None:
        for side, piece in ruleset.roster(params, state):
            out[f"roster {side} {piece}"] = out.get(f"roster {side} {piece}", 0.0) + 1.0
    return out


class Sample(msgspec.Struct, frozen=True, kw_only=True):
    """Games to play for a fit: everything a worker needs."""

    rules: RulesRef
    bot: str
    seats: dict[str, str]
    sides: list[str]
    seeds: list[int]


class Onward(msgspec.Struct, frozen=True, kw_only=True):
    """Games to play to the end from one point of a match, for a fit on that match."""

    rules: RulesRef
    bot: str
    sides: list[str]
    seq: int
    state: Any
    seeds: list[int]
    max_events: int


def has_metrics(rules: Rules) -> bool:
    """Whether the game gives any metrics a model could read."""
    return rules.ruleset.metrics is not no_metrics


@without_cycle_collector
def sample_games(task: Sample) -> list[tuple[str | None, list[tuple[dict[str, float], int]]]]:
    """Per game (runs in a worker): its winner (None: a draw or unfinished) and the metrics
    and round at each of its turn starts."""
    rules = task.rules.rules()
    ruleset, params = rules.ruleset, rules.params
    out = []
    for seed in task.seeds:
        events = play(rules, task.seats, seed=seed, bot=task.bot, audit=False)
        rows: list[tuple[dict[str, float], int]] = []
        turn, state = None, None
        for step in replay(events, rules, audit=False):
            if type(step.event).__name__ == "MatchEnded":
                break
            state = step.state
            progress = ruleset.progress(params, state)
            if progress.turn != turn:
                rows.append((readings(rules, state), progress.round))
            turn = progress.turn
        result = ruleset.outcome(params, state) if state is not None else None
        winner = result.winner if result is not None and not result.draw else None
        out.append((winner if winner in task.sides else None, rows))
    return out


@without_cycle_collector
def sample_onward(task: Onward) -> list[tuple[str | None, list[tuple[dict[str, float], int]]]]:
    """Per game played on to its end from the task's point (runs in a worker): its winner
    and what the model reads at the start of each round it passed through."""
    rules = task.rules.rules()
    out = []
    for seed in task.seeds:
        rng = random.Random(seed)
        state, seq = task.state, task.seq
        rows: list[tuple[dict[str, float], int]] = []
        while True:
            result, seq, state = play_ahead(rules, state, seed=rng.getrandbits(63), bot=task.bot, seq=seq,
                                            max_events=task.max_events, rounds=1)
            if result is not None or seq >= task.max_events or (rows and rows[-1][1] == _round(rules, state)):
                break  # over, out of moves, or no one could move
            rows.append((readings(rules, state), _round(rules, state)))
        winner = result.winner if result is not None and not result.draw else None
        out.append((winner if winner in task.sides else None, rows))
    return out


def _round(rules: Rules, state: Any) -> int:
    return rules.ruleset.progress(rules.params, state).round


def match_model(rules: Rules, seats: Sequence[str], points: Sequence[tuple[int, Any]], *, bot: str, seed: int,
                workers: int, scheduler: str | None, error: type[TabletapeError], max_events: int,
                games: int = FIT_GAMES) -> tuple[WinModel | None, int]:
    """A model fitted on games the bots play to the end from `MATCH_POINTS` of this match's
    own points, spread evenly: it knows this match's roster and the kind of position its
    play reaches, which a model of games from the start does not. Also the points used."""
    if not has_metrics(rules) or not points:
        return None, 0
    winners = sides(rules, seats)
    chosen = [points[round(i * (len(points) - 1) / max(MATCH_POINTS - 1, 1))] for i in range(min(MATCH_POINTS, len(points)))]
    chosen = list(dict(chosen).items())
    each = max(1, games // len(chosen))
    tasks = [Onward(rules=RulesRef.of(rules), bot=bot,
                    sides=winners, seq=seq, state=state, seeds=[game_seed(game_seed(seed, -1 - seq), i) for i in range(each)],
                    max_events=max_events)
             for seq, state in chosen]
    played = [game for chunk in ordered_map(sample_onward, tasks, workers=workers, scheduler=scheduler, error=error,
                                            work="fit of the win model", lost="no model was kept")
              for game in chunk]
    return fit(played, winners), len(chosen)


def sides(rules: Rules, seats: Sequence[str]) -> list[str]:
    """Who can win: the seats, or their sides where the game's outcomes name sides."""
    side = rules.ruleset.seat_side
    return list(dict.fromkeys(side(seat) if side is not None else seat for seat in seats))


def win_model(rules: Rules, seats: Sequence[str], *, bot: str, cache: ResultCache,
              workers: int, scheduler: str | None, error: type[TabletapeError], games: int = FIT_GAMES,
              seed: int = 1) -> WinModel | None:
    """The model for these rules, bot and seating, fitted now or read from the cache; None
    where the game has no metrics or its games never had two different winners."""
    if not has_metrics(rules):
        return None
    winners = sides(rules, seats)
    key = (rules.ruleset.fingerprint, rules.spec, msgspec.json.encode(dict(rules.overrides)).decode(), bot,
           ",".join(seats), str(games), str(seed), str(PENALTY))
    if (kept := cache.get(CACHE_KIND, key)) is not None:
        return msgspec.msgpack.decode(kept, type=WinModel | None)
    seeds = [game_seed(seed, i) for i in range(games)]
    tasks = [Sample(rules=RulesRef.of(rules), bot=bot,
                    seats={seat: seat for seat in seats}, sides=winners, seeds=seeds[i:i + PER_TASK]) for i in range(0, games, PER_TASK)]
    played = [game for chunk in ordered_map(sample_games, tasks, workers=workers, scheduler=scheduler, error=error,
                                            work="fit of the win model", lost="no model was kept")
              for game in chunk]
    model = fit(played, winners)
    cache.put(CACHE_KIND, key, msgspec.msgpack.encode(model))
    return model


def fit(played: Sequence[tuple[str | None, Sequence[tuple[Mapping[str, float], int]]]], seats: list[str]) -> WinModel | None:
    """The ridge-penalized multinomial logistic regression of each game's winner on the
    features of its turn starts (numpy, scipy's L-BFGS: deterministic, and it stays finite
    where a metric separates the winners)."""
    import numpy as np
    from scipy.optimize import minimize

    decided = [(seats.index(winner), rows) for winner, rows in played if winner is not None and rows]
    if len({label for label, _ in decided}) < 2:
        return None
    names = sorted({name for _, rows in decided for metrics, _ in rows for name in metrics})
    if not names:
        return None
    labels, raw = [], []
    for label, rows in decided:
        for metrics, round_ in rows:
            values = [float(metrics.get(name, 0.0)) for name in names]
            raw.append([*values, float(round_), *(v * round_ for v in values)])
            labels.append(label)
    x = np.asarray(raw)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    y = np.zeros((len(x), len(seats)))
    y[np.arange(len(x)), labels] = 1.0
    shape = (len(seats), z.shape[1])

    def loss(flat: Any) -> tuple[float, Any]:
        w = flat.reshape(shape)
        logits = np.einsum("nd,kd->nk", z, w)  # not BLAS: its threads fight the rollouts' workers for the cores
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        ridge = w[:, 1:]
        value = -np.sum(y * np.log(np.clip(p, 1e-300, None))) / len(z) + PENALTY / 2 * np.sum(ridge ** 2)
        grad = np.einsum("nk,nd->kd", p - y, z) / len(z)
        grad[:, 1:] += PENALTY * ridge
        return float(value), grad.ravel()

    found = minimize(loss, np.zeros(shape).ravel(), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    weights = found.x.reshape(shape)
    return WinModel(seats=seats, names=names, mean=mean.tolist(), scale=scale.tolist(), weights=weights.tolist(),
                    games=len(decided), samples=len(z))
