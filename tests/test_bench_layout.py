"""A speed figure is a ratio to a baseline commit measured in the same run, by this checkout's
measuring code importing modules by today's names; a baseline laid out before projections/
and dashboard/ had their subpackages must answer those names with its own modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OLD_TREE = {
    "projections/__init__.py": "",
    "projections/replay.py": "WHERE = 'the old replay'\n",
    "projections/warehouse.py": "WHERE = 'the old warehouse'\n",
    "projections/parallel.py": "from projections.warehouse import WHERE as SYNC\nWHERE = 'the old parallel'\n",
    "dashboard/__init__.py": "",
    "dashboard/cli.py": "WHERE = 'the old cli'\n",
}

PROBE = """
import sys
sys.path.insert(0, {root!r})
from benchmarks import layout
sys.path.remove({root!r})
layout.install()
from projections.read.replay import WHERE as replay
from projections.warehouse.sync import WHERE as sync
from projections.warehouse.parallel import SYNC, WHERE as parallel
from dashboard.cli.commands import WHERE as cli
print(replay, sync, parallel, SYNC, cli, sep="|")
"""


def test_a_baseline_laid_out_the_old_way_answers_todays_module_names(tmp_path: Path) -> None:
    for name, text in OLD_TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    done = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT))], cwd=tmp_path,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split("|") == [
        "the old replay", "the old warehouse", "the old parallel", "the old warehouse", "the old cli"]


def test_todays_tree_is_left_to_its_own_modules() -> None:
    probe = PROBE.format(root=str(ROOT)).split("from projections.read")[0] + (
        "import projections.read.replay as r\nprint(any(type(f).__name__ == '_OldLayout' for f in sys.meta_path), r.__file__)\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", str(ROOT / "projections" / "read" / "replay.py")]
