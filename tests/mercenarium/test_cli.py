"""The command line with Mercenarium: new, append, replay, audit, rules and schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_support import lines, run
from tests.mercenarium import golden


@pytest.fixture
def match(tmp_path: Path) -> tuple[Path, str]:
    home = tmp_path / "store"
    code, out, err = run(home, "new", "--ruleset", "mercenarium", "--seats", "red=ana,yellow=ben", "--id", "m1")
    assert code == 0, err
    assert out.strip() == "m1"
    return home, "m1"


DEAL = [
    *({"type": "CardDealt", "seat": seat, "card": f"{rank}{suit}"} for rank in "23456" for seat, suit in (("red", "C"), ("yellow", "S"))),
    {"type": "HymnDealt", "seat": "red", "hymn": "II"},
    {"type": "HymnDealt", "seat": "yellow", "hymn": "III"},
    {"type": "TurnOrderRolled", "seat": "red", "die": "fool", "face": "sphere"},
    {"type": "TurnOrderRolled", "seat": "yellow", "die": "fox", "face": 2},
]
"""A table's deal and roll, typed by hand: red rolls the sphere (a 6) and goes first."""


def test_new_append_replay_and_audit_a_match(match: tuple[Path, str]) -> None:
    home, match_id = match
    code, out, err = run(home, "append", match_id, stdin=lines(*DEAL))
    assert code == 0 and "last seq 14" in out, err
    code, out, _ = run(home, "append", match_id, "--event", json.dumps({"type": "CardSummoned", "by": "red", "card": "6C", "space": [3, 6]}))
    assert code == 0
    code, out, _ = run(home, "append", match_id, "--event", json.dumps({"type": "CardSummoned", "by": "red", "card": "5C", "space": [3, 5]}))
    assert code == 0
    code, out, _ = run(home, "replay", match_id, "--at", "15")
    assert code == 0 and "red summons the 6 of Claws to D7" in out and "6C" in out and "Captures:" in out
    code, out, _ = run(home, "replay", match_id, "--format", "json")
    assert code == 0 and json.loads(out)["seq"] == 16
    code, out, _ = run(home, "audit", match_id)
    assert code == 1 and "mercenarium/turn.order" in out and "seq    16" in out


def test_seats_must_be_houses_across_the_board(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", "mercenarium", "--seats", "red=a,orange=b")
    assert code == 2 and "directly across" in err
    code, _, err = run(tmp_path, "new", "--ruleset", "mercenarium", "--seats", "red=a,blue=b")
    assert code == 2 and "not a House" in err


def test_rules_shows_params_with_provenance_and_every_reading(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rules", "mercenarium")
    assert code == 0
    assert "board_size" in out and "[assumed]" in out and "captures_to_win" in out
    assert "mercenarium/alchemy.wheel" in out and "mercenarium/hymns.effect" in out


def test_the_schema_lists_every_event_type(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "schema", "mercenarium")
    schema = json.loads(out)
    assert code == 0 and {"CardSummoned", "CardDrawn", "HymnSung", "ZodiacRolled", "MatchStarted", "Retracted"} <= set(schema["$defs"])


def test_a_golden_log_imports_and_audits_clean(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "import", str(golden.log_path("mercenarium-4p")))
    assert code == 0, err
    code, out, _ = run(tmp_path, "audit", "golden-mercenarium-4p")
    assert code == 0 and "result OK" in out and "it is a draw" in out
