"""The dashboard's process keeps what its imports made out of the garbage collector's walk,
so a full collection inside a tap walks only what runs made since."""

from __future__ import annotations

import gc
import subprocess
import sys
import types
from pathlib import Path

from dashboard.heap import settle
from tests.dashboard.conftest import APP

RUN_THE_APP = f"""
import gc
from streamlit.testing.v1 import AppTest
before = gc.get_freeze_count()
AppTest.from_file({APP!r}, default_timeout=120).run()
print(before, gc.get_freeze_count())
"""


def test_a_run_of_the_dashboard_freezes_what_its_pages_imported(home: Path) -> None:
    ran = subprocess.run([sys.executable, "-c", RUN_THE_APP], capture_output=True, text=True, timeout=300, check=True)
    before, after = map(int, ran.stdout.split()[-2:])
    assert before == 0
    assert after > 10_000  # Streamlit, pandas, DuckDB and the games' code: far more than a few objects


def test_a_serving_process_freezes_what_the_service_imported(tmp_path: Path) -> None:
    serve = f"import gc; from dashboard.service.server import served_app; served_app({str(tmp_path)!r}); print(gc.get_freeze_count())"
    ran = subprocess.run([sys.executable, "-c", serve], capture_output=True, text=True, timeout=300, check=True)
    assert int(ran.stdout.split()[-1]) > 10_000


def test_the_heap_is_frozen_again_only_once_more_was_imported() -> None:
    try:
        settle()
        frozen = gc.get_freeze_count()
        made = [[n] for n in range(1_000)]  # objects the collector tracks, made after the freeze
        assert settle() is False
        assert gc.get_freeze_count() == frozen
        sys.modules["tabletape_heap_probe"] = types.ModuleType("tabletape_heap_probe")
        assert settle() is True
        assert gc.get_freeze_count() >= frozen + len(made)
    finally:
        sys.modules.pop("tabletape_heap_probe", None)
        gc.unfreeze()
