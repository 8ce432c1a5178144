"""The command line with Warcraft: Frontline: new (with races), append, replay --at, audit, rules, schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_support import lines, run
from tests.frontline import golden


@pytest.fixture
def match(tmp_path: Path) -> tuple[Path, str]:
    home = tmp_path / "store"
    code, out, err = run(home, "new", "--ruleset", "frontline", "--seats", "a=ana,b=ben", "--id", "w1",
                         "--option", 'races={"a": "human", "b": "orc"}')
    assert code == 0, err
    assert out.strip() == "w1"
    return home, "w1"


OPENING = [
    {"type": "WorkersMoved", "by": "a", "count": 1, "origin": "lumber", "to": "gold"},
    {"type": "BuildingBuilt", "by": "a", "building": "farm", "area": "A4"},
    {"type": "RoundEnded", "by": "a"},
    {"type": "FrontlineMoved", "toward": None, "grids": 0, "forces": {"a": 0, "b": 0}},
    {"type": "BuildingBuilt", "by": "b", "building": "tower", "area": "B1"},
]
"""A table's first round and a half, typed by hand: a (human) builds a farm, b (orc) a tower."""


def test_new_append_replay_and_audit_a_match(match: tuple[Path, str]) -> None:
    home, match_id = match
    code, out, err = run(home, "append", match_id, stdin=lines(*OPENING))
    assert code == 0 and "last seq 5" in out, err
    code, out, _ = run(home, "replay", match_id, "--at", "2")
    assert code == 0 and "event 2/5: a builds a Farm in A4" in out
    code, out, _ = run(home, "replay", match_id, "--format", "json")
    assert code == 0 and json.loads(out)["seq"] == 5
    code, out, _ = run(home, "audit", match_id)
    assert code == 0 and "result OK" in out
    code, out, _ = run(home, "append", match_id, "--event", json.dumps({"type": "BuildingBuilt", "by": "b", "building": "castle", "area": "B4"}))
    assert code == 0
    code, out, _ = run(home, "audit", match_id)
    assert code == 1 and "frontline/build.unknown" in out and "no building 'castle'" in out and "seq     6" in out


def test_an_unknown_race_is_one_clear_line(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "new", "--ruleset", "frontline", "--seats", "a=x,b=y", "--option", 'races={"a": "elf"}')
    assert code == 2 and "unknown race 'elf' for seat a; the races are orc, human" in err
    assert "Traceback" not in err + out and len(err.strip().splitlines()) == 1


def test_three_seats_are_refused(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", "frontline", "--seats", "a=x,b=y,c=z")
    assert code == 2 and "2 player only game" in err


def test_unknown_units_and_techs_are_named_by_the_audit(match: tuple[Path, str]) -> None:
    home, match_id = match
    events = [{"type": "TrainingStarted", "by": "a", "unit": "dragon", "building": "base-1"},
              {"type": "ResearchStarted", "by": "a", "tech": "necromancy", "building": "base-1"}]
    code, _, err = run(home, "append", match_id, stdin=lines(*events))
    assert code == 0, err
    code, out, _ = run(home, "audit", match_id)
    assert code == 1 and "frontline/train.unknown" in out and "no unit 'dragon'" in out
    assert "frontline/research.unknown" in out and "no tech 'necromancy'" in out


def test_rules_shows_params_with_provenance_and_every_reading(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rules", "frontline")
    assert code == 0
    assert "track" in out and "[assumed]" in out and "[rules]" in out and "bouts" in out
    assert "frontline/combat.no-skip" in out and "frontline/victory.points" in out and "frontline/combat.when" in out


def test_the_schema_lists_every_event_type(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "schema", "frontline")
    schema = json.loads(out)
    assert code == 0 and {"BuildingBuilt", "WorkersMoved", "FrontlineMoved", "RoundEnded", "MatchStarted"} <= set(schema["$defs"])


def test_a_golden_log_imports_and_audits_clean(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "import", str(golden.log_path("frontline-orc-human")))
    assert code == 0, err
    code, out, _ = run(tmp_path, "audit", "golden-frontline-orc-human")
    assert code == 0 and "result OK" in out and "a won" in out
