"""Win chances along a match, through the command line, the Python API and HTTP: a game
decided early shows its swing where it was decided, the same request gives the same curve
and the second time reads it from the cache, and whoever may not see the whole table, or a
game without bots, is told so in one line. Played a round ahead and scored by a model of the
game's metrics, or stopped once a point's interval is narrow, the curve still swings where
the game was decided and says how it was made; a game without metrics is played to the end."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from dashboard.service.server import create_app
from events.tokens import Tokens
from projections.corpus.chances import STEP, Chances, chances
from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.workspace import Workspace
from rulesets import registry
from tests.chances_support import FORCED, FORCING, forced_game
from tests.cli_support import lines, run
from tests.plugin_support import examples_installed, install, pig, site

__all__ = ["pig", "site"]  # fixtures

ROLLOUTS = 100


@pytest.fixture
def home(pig: Path, tmp_path: Path) -> Path:
    home = tmp_path / "store"
    forced_game(Workspace(home))
    return home


def _decisive(found: Chances) -> None:
    """The curve of the forced game: even at the start, settled for a at the forcing event."""
    start, forced = found.points[0], next(p for p in found.points if p.seq == FORCING)
    assert 0.35 < found.share(start, "a") < 0.65
    assert found.share(forced, "a") > 0.95
    top = found.turning_points()[0]
    assert (top.seat, top.to_seq) == ("a", FORCING) and top.seq <= FORCING
    assert top.after - top.before > 0.3
    assert found.summary()[0].startswith(f"Decided in its first quarter: a's chance stayed at 90% or more from event {FORCING}")


def test_a_game_decided_early_swings_at_the_event_that_decided_it(home: Path) -> None:
    found = chances(Workspace(home), FORCED, rollouts=ROLLOUTS, workers=1)
    _decisive(found)
    assert not found.cached and found.games == ROLLOUTS * (len(found.points) - 1)  # the last point is the rules' own result
    assert found.points[-1].exact and found.points[-1].wins == {"a": ROLLOUTS, "b": 0}
    assert "the bots saw the whole table, hidden cards included" in found.played_by


def test_the_same_curve_twice_is_equal_and_the_second_comes_from_the_cache(home: Path) -> None:
    ws = Workspace(home)
    first = chances(ws, FORCED, rollouts=ROLLOUTS, workers=1)
    again = chances(ws, FORCED, rollouts=ROLLOUTS, workers=2)  # the seeds are per game: workers do not change it
    assert again.cached and not first.cached
    assert again.points == first.points and again.curve() == first.curve()
    other = chances(ws, FORCED, rollouts=ROLLOUTS, workers=2, seed=2)
    assert not other.cached and other.points != first.points


def test_a_curve_is_the_same_on_one_process_or_several(home: Path, tmp_path: Path) -> None:
    ws = Workspace(home)
    spread = chances(ws, FORCED, rollouts=ROLLOUTS, workers=2, every="event")
    (home / "cache").rename(tmp_path / "elsewhere")  # played again, not read back
    alone = chances(ws, FORCED, rollouts=ROLLOUTS, workers=1, every="event")
    assert not alone.cached and alone.points == spread.points
    assert [p.seq for p in alone.points] == list(range(alone.last_seq + 1))


def test_a_new_event_is_a_new_curve(home: Path) -> None:
    ws = Workspace(home)
    chances(ws, FORCED, rollouts=10, workers=1)
    ws.append(FORCED, b'{"type":"Ruled","rule":"pig/goal","decision":"agreed"}\n')
    assert not chances(ws, FORCED, rollouts=10, workers=1).cached


def test_the_command_prints_the_curve_the_turning_points_and_their_links(home: Path) -> None:
    code, out, err = run(home, "chances", FORCED, "--rollouts", str(ROLLOUTS), "--workers", "2")
    assert code == 0, err
    assert f"{ROLLOUTS} games played on from each turn start by random bots (seed 1); the bots saw the whole table" in out
    assert f"Decided in its first quarter: a's chance stayed at 90% or more from event {FORCING} of 78" in out
    assert "Turning points:\n- event 1: events 1-17 (to turn 2): Rolled; Landed: face 6; Rolled; ...: a " in out
    assert f"/replay?match={FORCED}&at=1" in out
    code, again, err = run(home, "chances", FORCED, "--rollouts", str(ROLLOUTS), "--format", "json")
    answer = json.loads(again)
    assert answer["cached"] and answer["decided_at"] == FORCING
    assert answer["turning_points"][0]["to_seq"] == FORCING and answer["turning_points"][0]["link"] == f"/replay?match={FORCED}&at=1"
    assert {c["seat"] for c in answer["curve"]} == {"a", "b"}
    assert all(c["low"] <= c["chance"] <= c["high"] for c in answer["curve"])


@pytest.mark.parametrize(("args", "said"), [
    (("--rollouts", "0"), "error: --rollouts must be between 1 and 100000, not 0"),
    (("--bot", "clever"), "error: unknown bot 'clever' for pig-bots; bots: random"),
    (("--every", "round"), "Invalid value for '--every'"),
    (("--horizon", "soon"), "error: --horizon must be `full` or a number of rounds from 1 to 100, not 'soon'"),
    (("--precision", "0"), "error: --precision must be a number of points above 0 and at most 50, not 0"),
])
def test_a_bad_request_is_one_line(home: Path, args: tuple[str, ...], said: str) -> None:
    code, _out, err = run(home, "chances", FORCED, *args)
    assert code == 2 and said in err and "Traceback" not in err


def test_a_game_without_bots_says_so_in_one_line(home: Path) -> None:
    ws = Workspace(home)
    ws.new_match("pig-checked", {"a": "ana", "b": "ben"}, match_id="level-two")
    code, _out, err = run(home, "chances", "level-two")
    assert code == 2
    assert err.strip() == "error: pig-checked is a level 2 game: simulate needs level 4 (its `legal` function)"


@pytest.fixture
def http(home: Path) -> Iterator[tuple[TestClient, Path]]:
    with TestClient(app=create_app(home)) as client:
        yield client, home


def _bearer(home: Path, scope: str, **grant: str) -> dict[str, str]:
    text, _ = Tokens(home).issue(scope, **grant)
    return {"Authorization": f"Bearer {text}"}


def test_over_http_a_reader_gets_the_curve_and_a_seat_token_may_not_ask(http: tuple[TestClient, Path]) -> None:
    client, home = http
    answer = client.get(f"/matches/{FORCED}/chances", params={"rollouts": ROLLOUTS}, headers=_bearer(home, "read"))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["decided_at"] == FORCING and body["turning_points"][0]["to_seq"] == FORCING
    assert "hidden cards included" in body["played_by"]
    again = client.get(f"/matches/{FORCED}/chances", params={"rollouts": ROLLOUTS}, headers=_bearer(home, "read")).json()
    assert again["cached"] and again["curve"] == body["curve"]
    seat = client.get(f"/matches/{FORCED}/chances", headers=_bearer(home, "seat", match_id=FORCED, seat="a"))
    assert seat.status_code == 403 and "only shows seat 'a''s view" in seat.text


@pytest.mark.parametrize(("params", "said"), [
    ({"rollouts": 0}, "rollouts: expected a whole number from 1 to 2000, got '0'"),
    ({"rollouts": 5000}, "rollouts: expected a whole number from 1 to 2000, got '5000'"),
    ({"every": "round"}, "--every must be one of turn, event, not 'round'"),
    ({"bot": "clever"}, "unknown bot 'clever' for pig-bots; bots: random"),
    ({"horizon": "0"}, "--horizon must be `full` or a number of rounds from 1 to 100, not '0'"),
    ({"fit": "nearby"}, "--fit must be one of rules, match, not 'nearby'"),
])
def test_over_http_a_bad_request_is_refused_in_one_line(http: tuple[TestClient, Path], params: dict[str, object],
                                                        said: str) -> None:
    client, home = http
    answer = client.get(f"/matches/{FORCED}/chances", params=params, headers=_bearer(home, "read"))
    assert answer.status_code == 422 and answer.json()["error"] == said


def test_compare_versions_says_how_early_games_are_decided_and_how_often_the_likely_winner_changes(
        pig: Path, tmp_path: Path) -> None:
    home = tmp_path / "versions"
    code, out, err = run(home, "compare-versions", "pig-bots@short", "pig-bots@100", "--games", "4", "--workers", "1",
                         "--chances", "3", "--chance-rollouts", "4")
    assert code == 0, err
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()[:1] in (["decided_when"], ["chance_lead_changes"])}
    assert set(rows) == {"decided_when", "chance_lead_changes"}
    assert all(line.count("[") >= 3 for line in rows.values())  # both versions and the difference, with intervals
    assert "How early are games decided?" in out and "How often does the likely winner change?" in out
    kept = list((home / "cache" / "chances").rglob("*"))
    assert len([p for p in kept if p.is_file()]) == 6  # three games of each version, each curve kept


def test_compare_versions_refuses_chances_with_until_decided(pig: Path, tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "s", "compare-versions", "pig-bots@short", "pig-bots@100", "--until-decided", "--chances", "2")
    assert code == 2 and "--chances is for one round of games, not --until-decided" in err


@pytest.mark.parametrize("game", [name for name in registry.built_in() if registry.game(name).default_bot is not None])
def test_every_built_in_game_with_bots_has_win_chances(game: str, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    rules = registry.resolve(game)
    save_events(ws, play(rules, rules.ruleset.example_seats, seed=3, match_id=f"bot-{game}", max_events=60))
    found = chances(ws, f"bot-{game}", rollouts=2, workers=1)
    assert found.points[0].seq == 0 and found.points[-1].seq == found.last_seq == 59
    assert all(sum(p.wins.values()) + p.draws + p.unfinished == 2 for p in found.points)
    assert set(found.seats) == set(rules.ruleset.example_seats)


def test_a_game_with_hidden_hands_has_win_chances_played_from_the_whole_table(site: Path, tmp_path: Path) -> None:
    examples_installed()
    ws = Workspace(tmp_path / "store")
    rules = registry.resolve("gofish")
    save_events(ws, play(rules, {"a": "ana", "b": "ben"}, seed=2, match_id="fish", max_events=40))
    found = chances(ws, "fish", rollouts=3, workers=1)
    assert all(sum(p.wins.values()) + p.draws + p.unfinished == 3 for p in found.points)
    assert "hidden cards included" in found.played_by


def test_compare_a_branch_with_its_parent_says_how_each_line_stands_once_they_part(home: Path) -> None:
    ws = Workspace(home)
    branch = ws.branch(FORCED, FORCING - 1, new_id="rolled-on").match_id  # a rolls once more instead of holding 48
    ws.append(branch, lines({"type": "Rolled", "by": "a"}, {"type": "Landed", "face": 1}))
    code, out, err = run(home, "compare", FORCED, "--with", branch, "--chances", "40", "--format", "text")
    assert code == 0, err
    assert f"parts from {FORCED} after event {FORCING - 1}" in out and "40 games played on from each turn start" in out

    def a_after(line_id: str) -> float:
        [found] = re.findall(rf"^{line_id} after event \d+: a (\d+)%", out, flags=re.MULTILINE)
        return int(found) / 100

    assert a_after(FORCED) > 0.9  # holding 48 of 50 all but wins
    assert 0.2 < a_after(branch) < 0.8  # the 1 lost the turn's 48: the game is open again
    assert re.search(r"^both lines after event \d+: a \d+% \(\d+%-\d+%\), b", out, flags=re.MULTILINE)
    code, _, err = run(home, "compare", FORCED, "2", "3", "--chances", "40")
    assert code == 2 and err.strip() == "error: compare: --chances goes with --with OTHER (two lines of play), not with two versions"


SCORED = "scored"
"""The forced game again, in Pig with metrics: a position can be scored without playing it out."""


@pytest.fixture
def scored(home: Path, site: Path) -> Path:
    """The store of `home` with the forced game also played in `pig-scored`."""
    install(site, {"pig-scored": "pig_levels:SCORED"}, name="pig-scored", version="0.1")
    registry.refresh()
    forced_game(Workspace(home), "pig-scored", SCORED)
    return home


def test_a_curve_played_a_round_ahead_is_scored_by_a_fitted_model_and_still_swings_where_the_game_was_decided(
        scored: Path) -> None:
    code, out, err = run(scored, "chances", SCORED, "--rollouts", str(ROLLOUTS), "--horizon", "1", "--workers", "2")
    assert code == 0, err
    assert (f"{ROLLOUTS} games played on from each turn start by random bots (seed 1); played 1 round ahead, then scored "
            "by a model fitted on") in out
    code, again, err = run(scored, "chances", SCORED, "--rollouts", str(ROLLOUTS), "--horizon", "1", "--format", "json")
    answer = json.loads(again)
    assert answer["cached"] and answer["horizon"] == 1 and answer["model_games"] > 50
    top = answer["turning_points"][0]
    assert (top["seat"], top["to_seq"]) == ("a", FORCING) and top["after"] - top["before"] > 0.2  # a model of banked
    forced = {c["seat"]: c for c in answer["curve"] if c["seq"] == FORCING}  # points is blunter than play to the end
    assert forced["a"]["chance"] > 0.7 and forced["a"]["low"] <= forced["a"]["chance"] <= forced["a"]["high"]
    start = {c["seat"]: c["chance"] for c in answer["curve"] if c["seq"] == 0}
    assert 0.3 < start["a"] < 0.7


def test_stopping_at_a_precision_plays_fewer_games_and_the_same_curve_twice(scored: Path, tmp_path: Path) -> None:
    ws = Workspace(scored)
    found = chances(ws, SCORED, rollouts=ROLLOUTS, workers=2, horizon=1, precision=5)
    played = [p.rollouts for p in found.points if not p.exact]
    assert found.games == sum(played) < ROLLOUTS * len(played)
    assert min(played) == STEP and all(n % STEP == 0 or n == ROLLOUTS for n in played)
    assert found.turning_points()[0].to_seq == FORCING
    assert f"a turn start stopped once its 95% interval was within 5 points: {found.games:,} of" in found.played_by
    (scored / "cache" / "chances").rename(tmp_path / "elsewhere")  # played again (the model read back), not the curve
    alone = chances(ws, SCORED, rollouts=ROLLOUTS, workers=1, horizon=1, precision=5)
    assert not alone.cached and alone.points == found.points
    code, out, _ = run(scored, "chances", SCORED, "--rollouts", str(ROLLOUTS), "--horizon", "1", "--precision", "5")
    assert code == 0 and "(from the cache)" in out and f"up to {ROLLOUTS} games played on" in out
    assert re.search(rf"^\s+{FORCING}\s+\d+\s+{STEP}\s", out, flags=re.MULTILINE)  # the games column: this point stopped at one batch


def test_a_game_without_metrics_is_played_to_the_end_and_says_so(home: Path) -> None:
    ws = Workspace(home)
    ahead = chances(ws, FORCED, rollouts=20, workers=1, horizon=2)
    full = chances(ws, FORCED, rollouts=20, workers=1)
    assert not full.cached and ahead.points == full.points  # the same seeds, played to the end either way
    assert "played to the end: pig-bots has no metrics to score a position by" in ahead.played_by
    assert ahead.model_games == 0 and not any(p.scored for p in ahead.points)


def test_over_http_a_curve_may_be_asked_rounds_ahead_and_to_a_precision(scored: Path) -> None:
    with TestClient(app=create_app(scored)) as client:
        answer = client.get(f"/matches/{SCORED}/chances", params={"rollouts": ROLLOUTS, "horizon": "1", "precision": 5},
                            headers=_bearer(scored, "read"))
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["horizon"] == 1 and body["precision"] == 5 and body["model_games"] > 0
        assert body["games"] < ROLLOUTS * len({c["seq"] for c in body["curve"]})
        assert "played 1 round ahead, then scored by a model fitted on" in body["played_by"]
        assert body["turning_points"][0]["to_seq"] == FORCING
        refused = client.get(f"/matches/{SCORED}/chances", params={"precision": 0}, headers=_bearer(scored, "read"))
        assert refused.status_code == 422 and refused.json()["error"].startswith("precision: "), refused.text


@pytest.mark.parametrize("game", [name for name in registry.built_in() if registry.game(name).default_bot is not None])
def test_every_built_in_game_with_bots_has_win_chances_played_ahead_and_scored(game: str, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    rules = registry.resolve(game)
    save_events(ws, play(rules, rules.ruleset.example_seats, seed=3, match_id=f"bot-{game}", max_events=60))
    found = chances(ws, f"bot-{game}", rollouts=3, workers=1, horizon=1, fit_games=8)
    assert found.model_games > 0, found.played_by
    assert "played 1 round ahead, then scored by a model fitted on" in found.played_by
    assert all(abs(sum(p.wins.values()) + p.draws + p.unfinished - 3) < 1e-9 for p in found.points)
    assert any(p.scored for p in found.points)


def test_a_model_fitted_on_the_match_itself_says_so_and_sees_the_decided_game_as_decided(scored: Path) -> None:
    code, out, err = run(scored, "chances", SCORED, "--rollouts", "40", "--horizon", "1", "--fit", "match",
                         "--format", "json")
    assert code == 0, err
    answer = json.loads(out)
    assert re.search(r"played 1 round ahead, then scored by a model fitted on \d+ games played to the end from \d+ of "
                     r"this match's points", answer["played_by"])
    assert answer["turning_points"][0]["to_seq"] == FORCING
    forced = {c["seat"]: c["chance"] for c in answer["curve"] if c["seq"] == FORCING}
    assert forced["a"] > 0.9  # games from this match's own points saw a at 48 win
    rules_fit = chances(Workspace(scored), SCORED, rollouts=40, workers=1, horizon=1)
    assert not rules_fit.cached and rules_fit.fit == "rules"  # another model, another curve
