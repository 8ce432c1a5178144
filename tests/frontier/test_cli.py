"""Frontier through the command line: new, append, replay, audit, rules and schema."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_support import lines, run
from tests.frontier import golden

SETUP = [
    {"type": "TerrainPlaced", "by": "p1", "piece": "hab", "scale": 3, "outline": [[10, 10], [16, 10], [16, 16], [10, 16]],
     "levels": [{"height": 0, "rules": ["cover"], "name": "ground floor"}, {"height": 3, "rules": ["exposed"], "name": "roof"}]},
    {"type": "TerrainPlaced", "by": "p1", "piece": "swamp", "scale": 0, "outline": [[30, 5], [35, 5], [35, 9], [30, 9]], "levels": [{"height": 0, "rules": ["rough"]}]},
    {"type": "TerrainAgreed", "by": "p1"},
    {"type": "RolesRolled", "rolls": {"p1": 5, "p2": 3}},
    {"type": "RoleChosen", "by": "p1", "role": "attacker"},
    {"type": "FactionChosen", "by": "p1", "faction": "rebels"},
    {"type": "FactionChosen", "by": "p2", "faction": "central_systems_marine_corp"},
    {"type": "ArmySelected", "by": "p1", "units": ["jaeger", "saboteur"]},
    {"type": "ArmySelected", "by": "p2", "units": ["rifleman", "rifleman", "pathfinder", "pathfinder"]},
]


def test_new_append_replay_audit_a_frontier_match(tmp_path: Path) -> None:
    home = tmp_path / "store"
    code, out, err = run(home, "new", "--ruleset", "frontier", "--seats", "p1=ana,p2=ben", "--option", "mission=escort", "--option", "points=100", "--id", "f1")
    assert code == 0 and out.strip() == "f1", err
    code, out, _ = run(home, "append", "f1", stdin=lines(*SETUP))
    assert code == 0 and "last seq 9" in out
    code, out, _ = run(home, "replay", "f1", "--format", "json")
    state = json.loads(out)["state"]
    assert code == 0 and state["mission"] == "escort" and state["points"] == 100 and state["stage"] == "deployment"
    code, out, _ = run(home, "audit", "f1")
    assert code == 1 and "frontier/selection.points" in out and "seq     9" in out  # 120 points over a 100 limit
    code, out, _ = run(home, "replay", "f1", "--at", "4")
    assert code == 0 and "event 4/9: p1 rolls 5, p2 rolls 3: p1 wins" in out


def test_a_bad_mission_or_a_third_seat_is_refused(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", "frontier", "--seats", "p1=a,p2=b", "--option", "mission=siege")
    assert code == 2 and "mission 'siege'" in err
    code, _, err = run(tmp_path, "new", "--ruleset", "frontier", "--seats", "p1=a,p2=b,p3=c")
    assert code == 2 and "two players" in err


def test_import_and_audit_the_mistakes_log(tmp_path: Path) -> None:
    home = tmp_path / "store"
    code, out, _ = run(home, "import", str(golden.log_path("frontier-mistakes")))
    assert code == 0 and out.strip() == "frontier-mistakes"
    code, out, _ = run(home, "audit", "frontier-mistakes")
    assert code == 1 and "result WRONG" in out
    for rule in ("frontier/action-roll.die", "frontier/advantage.kept", "frontier/open-fire.range", "frontier/movement.distance", "frontier/advantage.dice-count"):
        assert rule in out


def test_rules_shows_params_with_provenance_and_the_readings(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rules", "frontier")
    assert code == 0 and "frontier@1.0" in out
    assert "advance_move" in out and "[rules]" in out and "points" in out and "[assumed]" in out
    assert "(contradiction)" in out and "Repulsor Field" in out and "(ambiguity)" in out


def test_the_schema_lists_every_frontier_event(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "schema", "frontier")
    names = set(json.loads(out)["$defs"])
    assert code == 0 and {"TerrainPlaced", "ActionRolled", "UnitMoved", "AbilityUsed", "MatchStarted", "Retracted", "Level"} <= names
