"""The command line with Mercy Frontier: new, append, replay, audit, compare, rules,
rulesets and schema; bad input is one clear line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_support import lines, run
from tests.mercyfrontier import golden

OPENING = [
    *({"type": "CardRevealed", "card": c} for c in ("raider-1", "brute-1", "scout-1", "militia-1")),
    {"type": "WorkersPlaced", "by": "orange", "spaces": [[3, 13], [5, 13]]},
    {"type": "ResourcesCollected", "by": "orange", "gained": {"biofuel": 1, "neosteel": 1}},
]
"""A table's first lines, typed by hand: the row flipped, orange's workers on its base nodes."""


@pytest.fixture
def match(tmp_path: Path) -> tuple[Path, str]:
    home = tmp_path / "store"
    code, out, err = run(home, "new", "--ruleset", "mercyfrontier", "--seats", "orange=ana,yellow=ben", "--id", "m1")
    assert code == 0, err
    assert out.strip() == "m1"
    return home, "m1"


def test_new_append_replay_and_audit_a_match(match: tuple[Path, str]) -> None:
    home, match_id = match
    code, out, err = run(home, "append", match_id, stdin=lines(*OPENING))
    assert code == 0 and "last seq 6" in out, err
    code, _, err = run(home, "append", match_id, "--event", json.dumps({"type": "WorkersBought", "by": "yellow", "count": 1}))
    assert code == 0, err
    code, out, _ = run(home, "replay", match_id, "--at", "6")
    assert code == 0 and "orange collects 1 biofuel, 1 neosteel" in out and "Resources:" in out
    code, out, _ = run(home, "audit", match_id)
    assert code == 1 and "mercyfrontier/turn.order" in out and "seq     7" in out


def test_the_accelerated_audit_names_the_refinery_doubling(match: tuple[Path, str], tmp_path: Path) -> None:
    home = tmp_path / "other"
    code, _, err = run(home, "new", "--ruleset", "mercyfrontier@accelerated", "--seats", "orange=ana,yellow=ben", "--id", "fast")
    assert code == 0, err
    run(home, "append", "fast", stdin=lines(*OPENING))
    code, out, _ = run(home, "audit", "fast")
    assert code == 1 and "mercyfrontier/workers.collection" in out and "2 biofuel, 2 neosteel" in out


def test_compare_replays_a_log_under_two_versions(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "import", str(golden.log_path("mercyfrontier-playtest-6")))
    assert code == 0, err
    code, out, err = run(tmp_path, "compare", "golden-mercyfrontier-playtest-6", "mercyfrontier@playtest-6", "mercyfrontier@playtest-4")
    assert code == 0, err
    assert "mercyfrontier/combat.victor-continues" in out


def test_rulesets_and_rules_list_the_versions_params_and_readings(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rulesets")
    assert code == 0 and "mercyfrontier" in out
    assert all(v in out for v in ("playtest-3", "playtest-4", "playtest-6", "playtest-7", "accelerated", "current"))
    code, out, _ = run(tmp_path, "rules", "mercyfrontier@playtest-4")
    assert code == 0 and "victor_continues" in out and "[assumed]" in out and "[rules]" in out
    assert "mercyfrontier/combat.simultaneous" in out and "mercyfrontier/outposts.worker (contradiction)" in out


def test_the_schema_lists_every_event_type(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "schema", "mercyfrontier")
    schema = json.loads(out)
    assert code == 0 and {"MercenaryMoved", "CombatResolved", "TileUncovered", "StepFinished", "MatchStarted"} <= set(schema["$defs"])


@pytest.mark.parametrize(("args", "expected"), [
    (("new", "--ruleset", "mercyfrontier", "--seats", "red=a,blue=b"), "orange and yellow"),
    (("new", "--ruleset", "mercyfrontier@playtest-9", "--seats", "orange=a,yellow=b"), "unknown version 'playtest-9'"),
])
def test_bad_input_is_one_clear_line(tmp_path: Path, args: tuple[str, ...], expected: str) -> None:
    code, _, err = run(tmp_path, *args)
    assert code == 2 and expected in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_malformed_event_is_refused_in_one_line(match: tuple[Path, str]) -> None:
    home, match_id = match
    code, _, err = run(home, "append", match_id, "--event", json.dumps({"type": "MercenaryMoved", "by": "orange", "card": "raider-1", "direction": "up", "spaces": 1}))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "direction" in err
