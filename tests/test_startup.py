"""A command loads what it uses: the statistics, the warehouse and the servers only for the
verbs that need them, so recording and simulating do not pay for them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("statsmodels", "scipy", "pandas", "duckdb", "pyarrow", "streamlit", "litestar", "uvicorn")

SCRIPT = """
import json, sys
from dashboard.cli.commands import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    if done.code:
        raise
print(json.dumps(sorted(name for name in sys.modules if name.split(".")[0] in {heavy!r})))
"""


def loaded(home: Path, *args: str) -> list[str]:
    """The heavy modules a fresh process has loaded after running `tabletape args...`."""
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(heavy=set(HEAVY)), "--home", str(home), *args],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("args", [
    ("--help",),
    ("list",),
    ("new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", "m2"),
    ("append", "m1", "--event", '{"type": "DraftRolled", "red": 5, "blue": 2}'),
    ("replay", "m1", "--at", "0"),
    ("simulate", "mortalgate@2.5", "--games", "2", "--workers", "1"),
    ("audit", "--all", "--workers", "1"),
], ids=lambda args: args[0].lstrip("-"))
def test_recording_simulating_and_auditing_load_no_statistics_warehouse_or_server(tmp_path: Path, args: tuple[str, ...]) -> None:
    home = tmp_path / "store"
    assert loaded(home, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", "m1") == []
    assert loaded(home, *args) == []


def test_simulate_keeps_a_warehouse_already_built_current(tmp_path: Path) -> None:
    home = tmp_path / "store"
    assert "none built yet" in _run(home, "simulate", "mortalgate@2.5", "--games", "2", "--seed", "1", "--workers", "1")
    assert "mortalgate  2.5      2 " in _run(home, "query", "game_length")  # the first query builds it
    out = _run(home, "simulate", "mortalgate@2.5", "--games", "3", "--seed", "2", "--workers", "1")
    assert "warehouse: synced 5 matches (3 new, 0 extended, 2 unchanged)" in out
    assert "waited " in out and " s playing the games" in out
    assert "mortalgate  2.5      5 " in _run(home, "query", "game_length")


def test_simulate_syncs_its_games_on_the_worker_processes_it_played_them_on(tmp_path: Path) -> None:
    home = tmp_path / "store"
    _run(home, "simulate", "mortalgate@2.5", "--games", "2", "--seed", "1", "--workers", "1")
    _run(home, "query", "game_length")  # builds the warehouse
    out = _run(home, "simulate", "mortalgate@2.5", "--games", "16", "--seed", "2", "--workers", "2")
    assert "warehouse: synced 18 matches (16 new, 0 extended, 2 unchanged)" in out and " on 2 processes" in out, out
    assert "mortalgate  2.5      18 " in _run(home, "query", "game_length")


def _run(home: Path, *args: str) -> str:
    from tests.cli_support import run

    code, out, err = run(home, *args)
    assert code == 0, err
    return out
