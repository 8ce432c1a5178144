"""Simulated playtests at scale: seeds, batch files, local processes, a real Dask cluster, faults."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from events.batches import ReadOnlyMatchError
from events.shared import MatchEnded
from projections.corpus.batch import SimulationError, compare_versions, simulate
from projections.warehouse.queries import run_named
from projections.warehouse.sync import Warehouse
from projections.workspace import Workspace
from rulesets import registry
from rulesets.mortalgate.events import AltarCaptured

SPEC = "mortalgate@2.5"


def batch_bytes(ws: Workspace, batch_id: str) -> dict[str, bytes]:
    folder = ws.home / "batches" / batch_id
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_same_seed_gives_byte_identical_logs_whatever_the_workers(tmp_path: Path) -> None:
    one, two = Workspace(tmp_path / "one"), Workspace(tmp_path / "two")
    a = simulate(one, SPEC, games=12, seed=7, workers=1, sync=False)
    b = simulate(two, SPEC, games=12, seed=7, workers=2, sync=False)
    assert a.batch_id == b.batch_id and batch_bytes(one, a.batch_id) == batch_bytes(two, b.batch_id)
    c = simulate(Workspace(tmp_path / "three"), SPEC, games=12, seed=8, workers=2, sync=False)
    assert batch_bytes(Workspace(tmp_path / "three"), c.batch_id) != batch_bytes(one, a.batch_id)


def test_a_batch_is_a_few_files_served_like_any_match(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    progress: list[tuple[int, int]] = []
    report = simulate(ws, SPEC, games=20, seed=1, workers=2, progress=lambda d, t: progress.append((d, t)))
    files = sorted(p.name for p in (ws.home / "batches" / report.batch_id).iterdir())
    assert files == ["manifest.json", "part-0000.jsonl"]
    assert not (ws.home / "logs").exists()
    assert progress[-1] == (20, 20) and [d for d, _ in progress] == sorted(d for d, _ in progress)
    assert ws.matches() == report.match_ids
    match = report.match_ids[5]
    assert ws.verify(match).ok and isinstance(list(ws.events(match))[-1], MatchEnded)
    assert ws.audit(match).clean
    with pytest.raises(ReadOnlyMatchError, match="read-only"):
        ws.append(match, b'{"type":"Ruled","rule":"x","decision":"y"}\n')
    note = ws.notes.add(match, from_seq=3, author="ana", text="odd opening")
    assert ws.notes.list(match) == (note,)
    warehouse = Warehouse(ws)
    con = warehouse.connect()
    assert con.execute("SELECT count(*), min(batch) FROM matches").fetchone() == (20, report.batch_id)
    con.close()


def test_running_a_batch_again_reuses_it(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    first = simulate(ws, SPEC, games=4, seed=2, workers=1, sync=False)
    again = simulate(ws, SPEC, games=4, seed=2, workers=1, sync=False)
    assert again.match_ids == first.match_ids and again.workers == "(already simulated)"


def test_an_illegal_bot_move_stops_the_batch_with_that_game_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = registry.game("mortalgate")
    honest = ruleset.bots["heuristic"]

    def cheater(params, state, legal, rng):  # type: ignore[no-untyped-def]
        turn = state.turn
        if turn is not None and state.turns > 3 and not turn.pending:
            return AltarCaptured(by=None, hero=turn.hero, altar="altar-1")
        return honest(params, state, legal, rng)

    monkeypatch.setitem(ruleset.bots, "cheater", cheater)  # type: ignore[arg-type]
    ws = Workspace(tmp_path / "store")
    with pytest.raises(SimulationError, match=r"a bot played an illegal event, a bug: .*mortalgate/altars\.zone.*failed"):
        simulate(ws, SPEC, games=3, seed=1, bot="cheater", workers=1)
    saved = list((ws.home / "failed").glob("*.jsonl"))
    assert len(saved) == 1 and b"AltarCaptured" in saved[0].read_bytes().splitlines()[-1]
    assert not (ws.home / "batches").exists() or not any(p for p in (ws.home / "batches").iterdir() if not p.name.startswith("."))


# Long enough (about 20 s on two cores) that the kill a second in always lands mid-batch.
KILLER = """
import sys
from projections.workspace import Workspace
from projections.corpus.batch import simulate
simulate(Workspace(sys.argv[1]), "mortalgate@2.5", games=4000, seed=9, workers=2, sync=False)
"""


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found += [int(x) for x in text]
    return found


def test_a_local_worker_killed_mid_batch_fails_clearly_and_stores_nothing(tmp_path: Path) -> None:
    home = tmp_path / "store"
    proc = subprocess.Popen([sys.executable, "-c", KILLER, str(home)], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(children(proc.pid)) < 2:
        time.sleep(0.1)
    time.sleep(1.0)
    victims = children(proc.pid)
    assert victims, "the pool never started"
    os.kill(victims[-1], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert "a worker process died mid-batch" in err
    batches = home / "batches"
    assert not batches.exists() or [p.name for p in batches.iterdir()] == []


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0", silence_logs=50) as local:
        yield local


def test_a_dask_cluster_writes_the_same_bytes_as_local_processes(tmp_path: Path, cluster) -> None:  # type: ignore[no-untyped-def]
    local, remote = Workspace(tmp_path / "local"), Workspace(tmp_path / "dask")
    a = simulate(local, SPEC, games=16, seed=5, workers=2, sync=False)
    b = simulate(remote, SPEC, games=16, seed=5, scheduler=cluster.scheduler_address, sync=False)
    assert b.workers.startswith("dask tcp://127.0.0.1")
    assert batch_bytes(local, a.batch_id) == batch_bytes(remote, b.batch_id)


def test_a_dask_worker_killed_mid_batch_is_replaced_and_the_batch_completes(tmp_path: Path, cluster) -> None:  # type: ignore[no-untyped-def]
    from distributed import Client

    with Client(cluster.scheduler_address) as client:
        pids = list(client.run(os.getpid).values())
    result: dict[str, object] = {}
    ws = Workspace(tmp_path / "dask")

    def run() -> None:
        try:
            result["report"] = simulate(ws, SPEC, games=60, seed=6, scheduler=cluster.scheduler_address, sync=False)
        except Exception as error:
            result["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(2.0)
    os.kill(pids[0], signal.SIGKILL)
    thread.join(timeout=300)
    assert "error" not in result, result.get("error")
    local = Workspace(tmp_path / "local")
    reference = simulate(local, SPEC, games=60, seed=6, workers=2, sync=False)
    assert batch_bytes(ws, reference.batch_id) == batch_bytes(local, reference.batch_id)


def test_compare_versions_gives_the_seat_balance_that_side_win_rates_supports(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    result = compare_versions(ws, "mortalgate@2.1", "mortalgate@2.5", games=24, seed=4, workers=2)
    found = {v.key: v for v in result.verdicts}
    assert {"seat_balance", "first_player", "length", "decisive", "lead_changes", "comebacks"} <= set(found)
    assert found["length"].games == (24, 24)
    assert "length" in result.significant() and found["length"].difference.value < 0  # 2.5 ends at 20 Grace, not 50
    seat = found["seat_balance"]
    side = seat.measure.split("'")[0]
    for version, estimate in (("2.1", seat.a), ("2.5", seat.b)):
        [row] = [r for r in run_named(Warehouse(ws), "side_win_rates", {"version": version}).records() if r["side"] == side]
        assert (round(estimate.value, 3), round(estimate.low, 3), round(estimate.high, 3)) == (row["win_rate"], row["low95"], row["high95"])
    assert seat.paired is not None and seat.narrowing is not None  # both versions played the same 24 seeds
    assert result.conclusion().startswith("mortalgate@2.1 vs mortalgate@2.5") and result.heading().startswith("mortalgate@2.1 (A) vs mortalgate@2.5 (B)")
    assert str(ws.home / "batches") in result.stored


def test_a_chance_step_is_drawn_as_random_choices_draws_it() -> None:
    """`simulate.draw` draws one outcome the way `random.choices` does (the same number taken,
    the same outcome), so a seed keeps its log: even weights, uneven ones, a single outcome."""
    from projections.corpus.simulate import draw

    tables: list[list[tuple[object, float]]] = [
        [(face, 1 / 100) for face in range(100)], [("a", 0.5), ("b", 0.25), ("c", 0.25)], [("only", 1.0)]]
    for table in tables:
        for seed in range(200):
            ours, theirs = random.Random(seed), random.Random(seed)
            expected = theirs.choices([event for event, _ in table], weights=[weight for _, weight in table])[0]
            assert draw(table, ours) == expected  # type: ignore[arg-type]
            assert ours.random() == theirs.random()


def test_equally_likely_outcomes_unmade_are_drawn_as_random_choices_draws_their_list() -> None:
    """A `Uniform` chance step (a deck's draw, each card's event made when read) draws the
    outcome `random.choices` draws from the same outcomes listed, taking the same number,
    for every deck size a game meets (one card to a full deck and more)."""
    from projections.corpus.simulate import draw
    from rulesets.outcomes import Uniform

    for size in (*range(1, 70), 97, 100):
        outcomes = Uniform(tuple(range(size)), lambda card: ("drawn", card))
        listed = list(outcomes)
        assert listed == [(("drawn", card), 1 / size) for card in range(size)]
        for seed in range(60):
            ours, theirs = random.Random(seed), random.Random(seed)
            expected = theirs.choices([event for event, _ in listed], weights=[weight for _, weight in listed])[0]
            assert draw(outcomes, ours) == expected  # type: ignore[arg-type]
            assert ours.random() == theirs.random()
