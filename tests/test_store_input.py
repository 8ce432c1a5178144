"""What a user sends the store is kept as sent or refused whole, never silently changed;
a refusal says everything wrong with a line at once: a draft missing several fields
names them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.errors import LogFormatError
from projections.workspace import Workspace
from tests.cli_support import run


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file of a store and its bytes."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A store already holding one match (m1), which no refused input may touch."""
    home = tmp_path / "store"
    code, _, err = run(home, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", "m1")
    assert code == 0, err
    assert run(home, "append", "m1", "--event", json.dumps({"type": "DraftRolled", "red": 5, "blue": 2}))[0] == 0
    return home


# -- several missing fields -------------------------------------------------------------------


def test_append_names_every_missing_field_in_one_line(home: Path) -> None:
    before = snapshot(home)
    code, _, err = run(home, "append", "m1", "--event", json.dumps({"type": "AttackRolled", "by": "red"}))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "--event:1: AttackRolled: missing required fields `target`, `tens`, `ones`" in err
    with pytest.raises(LogFormatError, match="`target`, `tens`, `ones`"):
        Workspace(home).append("m1", json.dumps({"type": "AttackRolled", "by": "red"}))
    code, _, err = run(home, "append", "m1", "--event", json.dumps({"type": "AttackRolled", "target": "kyra", "tens": 1}))
    assert code == 2 and "AttackRolled: Object missing required field `ones`" in err  # one missing: as before
    assert snapshot(home) == before
