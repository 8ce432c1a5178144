"""The command line, as a person uses it: every bad input is one line and a non-zero exit,
and leaves the store as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from projections.workspace import Workspace
from tests.cli_support import lines, run


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file of a store and its bytes."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.fixture
def match(tmp_path: Path) -> tuple[Path, str]:
    home = tmp_path / "store"
    code, out, err = run(home, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben", "--id", "m1")
    assert code == 0, err
    assert out.strip() == "m1"
    return home, "m1"


DRAFT = [
    {"type": "DraftRolled", "red": 5, "blue": 2},
    {"type": "DraftChoiceMade", "by": "red", "team": "red", "choice": "first_pick"},
    {"type": "HeroPicked", "by": "red", "hero": "drexir"},
]



def test_new_append_replay_and_audit_a_match(match: tuple[Path, str]) -> None:
    home, match_id = match
    code, out, _ = run(home, "append", match_id, stdin=lines(*DRAFT))
    assert code == 0 and "last seq 3" in out
    code, out, _ = run(home, "append", match_id, "--event", json.dumps({"type": "HeroPicked", "by": "red", "hero": "sabea"}))
    assert code == 0
    code, out, _ = run(home, "replay", match_id, "--at", "2")
    assert code == 0 and "event 2/4: red takes the first pick" in out
    code, out, _ = run(home, "replay", match_id, "--format", "json")
    assert code == 0 and json.loads(out)["seq"] == 4
    code, out, _ = run(home, "audit", match_id)
    assert code == 1
    assert "mortalgate/draft.pick-order" in out and "seq     4" in out
    code, out, _ = run(home, "verify", match_id)
    assert code == 0 and "verifies" in out


def test_the_schema_lists_every_event_type(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "schema", "mortalgate")
    schema = json.loads(out)
    assert code == 0 and {"HeroMoved", "AttackRolled", "MatchStarted", "Retracted"} <= set(schema["$defs"])


def test_rulesets_lists_versions_and_variants(tmp_path: Path) -> None:
    (tmp_path / "variants").mkdir(parents=True)
    (tmp_path / "variants" / "long-game.toml").write_text('extends = "mortalgate@2.5"\ntitle = "Long"\n[params]\ngrace_to_win = 200\n')
    code, out, _ = run(tmp_path, "rulesets")
    assert code == 0
    for spec in ("mortalgate@1.5", "mortalgate@2.0", "mortalgate@2.1", "mortalgate@2.5", "mortalgate@long-game"):
        assert spec in out


BAD_APPENDS = [
    ("{not json\n", "not a JSON event object", ":1"),
    ('{"type": "HeroFlew", "hero": "drexir"}\n', "unknown event type 'HeroFlew'; known types:", ":1"),
    ('{"type": "DraftRolled", "red": "five", "blue": 2}\n', "field red", ":1"),
    ('{"type": "DraftRolled", "red": 5, "blue": 2}\n{"type": "DraftRolled", "seq": 9, "red": 5, "blue": 2}\n', "seq", ""),
    ('{"type": "MatchStarted", "match_id": "x", "ruleset": "mortalgate", "version": "2.5", "seats": {}}\n', "MatchStarted", ":1"),
]


@pytest.mark.parametrize(("data", "says", "where"), BAD_APPENDS)
def test_bad_appends_are_one_line_errors_that_change_nothing(match: tuple[Path, str], data: str, says: str, where: str) -> None:
    home, match_id = match
    before = snapshot(home)
    code, _out, err = run(home, "append", match_id, stdin=data)
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1
    assert f"<stdin>{where}" in err
    assert snapshot(home) == before


def test_a_stale_expected_seq_conflicts_and_writes_nothing(match: tuple[Path, str]) -> None:
    home, match_id = match
    before = snapshot(home)
    code, _, err = run(home, "append", match_id, "--expect-seq", "5", stdin=lines(DRAFT[0]))
    assert code == 2 and "conflict" in err.lower() and len(err.strip().splitlines()) == 1
    assert snapshot(home) == before


@pytest.mark.parametrize("bad_id", ["../evil", "a/b", "..", "x" * 200])
def test_a_match_id_with_path_characters_is_refused(tmp_path: Path, bad_id: str) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", "mortalgate", "--seats", "red=a,blue=b", "--id", bad_id)
    assert code == 2 and "match id" in err.lower()
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


@pytest.mark.parametrize(("spec", "says"), [("chess", "unknown ruleset 'chess'"), ("mortalgate@3.0", "unknown version '3.0'")])
def test_an_unknown_ruleset_or_version_is_refused(tmp_path: Path, spec: str, says: str) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", spec, "--seats", "red=a,blue=b")
    assert code == 2 and says in err and "known:" in err


def test_seats_that_form_no_teams_are_refused(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "new", "--ruleset", "mortalgate", "--seats", "green=a,blue=b")
    assert code == 2 and "seat 'green' names no team" in err


def test_a_broken_hash_chain_names_the_first_bad_line(match: tuple[Path, str]) -> None:
    home, match_id = match
    run(home, "append", match_id, stdin=lines(*DRAFT))
    path = home / "logs" / f"{match_id}.jsonl"
    rows = path.read_bytes().splitlines(keepends=True)
    rows[2] = rows[2].replace(b'"first_pick"', b'"first_turn"')
    path.write_bytes(b"".join(rows))
    code, _, err = run(home, "verify", match_id)
    assert code == 2 and "line 4" in err


def test_a_variant_overriding_an_unknown_param_is_named(tmp_path: Path) -> None:
    (tmp_path / "variants").mkdir(parents=True)
    (tmp_path / "variants" / "oops.toml").write_text('extends = "mortalgate@2.5"\n[params]\ngrace_to_wn = 15\n')
    code, _, err = run(tmp_path, "new", "--ruleset", "mortalgate@oops", "--seats", "red=a,blue=b")
    assert code == 2 and "oops.toml" in err and "unknown param 'grace_to_wn'" in err


def test_importing_a_log_without_match_started_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(lines(*DRAFT))
    code, _, err = run(tmp_path / "store", "import", str(log))
    assert code == 2 and "first line must be MatchStarted" in err and "bad.jsonl:1" in err


def test_notes_add_reply_edit_remove_and_list(match: tuple[Path, str]) -> None:
    home, match_id = match
    run(home, "append", match_id, stdin=lines(*DRAFT))
    code, out, err = run(home, "notes", "add", match_id, "--at", "1", "--to", "3", "--author", "ana", "--text", "draft felt slow", "--tag", "balance")
    assert code == 0, err
    note = out.strip()
    assert run(home, "notes", "reply", match_id, note, "--author", "ben", "--text", "agreed")[0] == 0
    assert run(home, "notes", "edit", match_id, note, "--author", "ana", "--text", "draft felt very slow")[0] == 0
    code, out, _ = run(home, "notes", "list", match_id)
    assert "draft felt very slow" in out and "ben: agreed" in out and "[balance]" in out
    assert run(home, "notes", "remove", match_id, note, "--author", "ana")[0] == 0
    assert note not in run(home, "notes", "list", match_id)[1]
    code, _, err = run(home, "notes", "add", match_id, "--at", "99", "--author", "ana", "--text", "x")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_rules_shows_params_with_provenance_and_the_readings(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rules", "mortalgate@2.5")
    assert code == 0
    assert "capture_grace          2            [rules]" in out
    assert "[assumed]" in run(tmp_path, "rules", "mortalgate@2.1")[1]
    assert "(contradiction)" in out and "Drexir needs to roll" in out


def test_rulebook_reports_the_misprinted_cell_and_exits_1(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rulebook", "mortalgate")
    assert code == 1
    assert "56 cells checked, 1 disagrees" in out and "printed 70+" in out and "30" in out


def test_import_audit_compare_export_a_golden_log(tmp_path: Path) -> None:
    from tests.mortalgate import golden

    home = tmp_path / "store"
    source = golden.log_path("mortalgate-mistakes")
    code, out, _ = run(home, "import", str(source))
    assert code == 0 and out.strip() == "mortalgate-mistakes"
    code, out, _ = run(home, "audit", "mortalgate-mistakes")
    assert code == 1 and "mortalgate/combat.range" in out and "result WRONG" in out
    code, out, _ = run(home, "compare", "mortalgate-mistakes", "mortalgate@2.1", "mortalgate@2.5")
    assert code == 0 and "first disagreement at seq" in out and "the outcome changes" in out
    code, exported, _ = run(home, "export", "mortalgate-mistakes")
    assert code == 0 and '"prev":""' not in exported.splitlines()[1]  # chained on the way in
    again = tmp_path / "exported.jsonl"
    again.write_text(exported)
    assert run(tmp_path / "other", "import", str(again))[0] == 0
    assert run(tmp_path / "other", "export", "mortalgate-mistakes")[1] == exported  # kept byte for byte
    code, out, _ = run(home, "list")
    assert "mortalgate-mistakes  mortalgate@2.5  playtest" in out
    code, _, err = run(home, "import", str(source))
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_an_audit_says_where_the_rules_text_gives_each_rule_it_finds_broken(tmp_path: Path) -> None:
    from tests.mortalgate import golden

    home = tmp_path / "store"
    assert run(home, "import", str(golden.log_path("mortalgate-mistakes")))[0] == 0
    code, out, _ = run(home, "audit", "mortalgate-mistakes")
    assert code == 1
    assert '  mortalgate/combat.range  mortalgate.txt, "Attacking"' in out.splitlines()
    code, out, _ = run(home, "audit", "mortalgate-mistakes", "--format", "json")
    assert json.loads(out)["passages"]["mortalgate/combat.range"] == 'mortalgate.txt, "Attacking"'


def test_demo_fills_an_empty_store_once(tmp_path: Path) -> None:
    from rulesets import registry

    versions = sum(len(registry.game(name).versions) for name in registry.names() if registry.game(name).default_bot)
    code, out, _ = run(tmp_path, "demo")
    assert code == 0 and f"{len(Workspace(tmp_path).matches())} matches" in out
    assert len([m for m in Workspace(tmp_path).matches() if m.startswith("demo-")]) >= versions
    code, out, _ = run(tmp_path, "demo")
    assert "0 new bot games" in out
    suggested = [line.split(f"--home {tmp_path} ", 1)[1].split() for line in out.splitlines() if "tabletape --home" in line]
    assert [command[0] for command in suggested] == ["replay", "audit", "compare"]
    for command in suggested:  # each runs as printed: 0, or 1 where an audit finds what the older rules forbid
        assert run(tmp_path, *command)[0] in (0, 1), command
    game = suggested[0][1].split("-")[1]
    assert all(spec.startswith(f"{game}@") for spec in suggested[2][2:])  # versions of the match's own game


def test_sync_query_and_export_from_the_command_line(tmp_path: Path) -> None:
    from tests.mortalgate import golden

    home = tmp_path / "store"
    run(home, "import", str(golden.log_path("mortalgate-mistakes")))
    code, out, _ = run(home, "sync")
    assert code == 0 and "1 new" in out
    assert "0 events replayed" in run(home, "sync")[1]
    code, out, _ = run(home, "query")
    assert "side_win_rates" in out and "match_outcomes" in out and "[ruleset: text = NULL, version: text = NULL]" in out
    code, out, _ = run(home, "query", "violations_by_rule", "--format", "json")
    assert code == 0 and {r["rule"] for r in json.loads(out)} >= {"mortalgate/combat.range"}
    code, out, _ = run(home, "query", "game_length", "--param", "source=playtest", "--format", "csv")
    assert out.splitlines()[0].startswith("ruleset,version,matches")
    code, _, err = run(home, "query", "--sql", "COPY matches TO '/tmp/leak.csv'")
    assert code == 2 and "disabled by configuration" in err and len(err.strip().splitlines()) == 1
    code, out, _ = run(home, "export-parquet", str(tmp_path / "pq"))
    assert code == 0 and (tmp_path / "pq" / "events" / "ruleset=mortalgate").is_dir()


def test_simulate_and_compare_versions_from_the_command_line(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "simulate", "mortalgate@2.5", "--games", "6", "--seed", "3", "--workers", "2")
    assert code == 0, err
    assert "6 games of mortalgate@2.5" in out
    code, out, _ = run(tmp_path, "query", "game_length", "--param", "source=simulation")
    assert " 6 " in out or "6  " in out
    code, out, _ = run(tmp_path, "compare-versions", "mortalgate@2.1", "mortalgate@2.5", "--games", "6", "--seed", "3")
    lines = out.strip().splitlines()
    blank = lines.index("")  # the verdicts in plain words first, then the statistics
    assert code == 0 and re.match(r"(No clear change in how often (red|blue) wins between 2\.1 and 2\.5|(Maybe )?(Red|Blue) wins)",
                                  lines[0]), lines[0]
    assert all(line.endswith(".") for line in lines[:blank]) and "Holm" not in " ".join(lines[:blank])
    assert lines[blank + 1].startswith("mortalgate@2.1 (A) vs mortalgate@2.5 (B), bot games: 6 and 6 games")
    assert lines[-1].startswith("mortalgate@2.1 vs mortalgate@2.5: significant differences (Holm-corrected, 5%) in")
    assert f"12 games stored in {tmp_path / 'batches'}" in out and "seat_balance" in out and "games per version" in out
    code, out, err = run(tmp_path, "compare-versions", "mortalgate@2.1", "mortalgate@2.5", "--games", "4", "--seed", "3",
                         "--until-decided", "--max-games", "8", "--measure", "seat_balance")
    rounds = [line for line in out.splitlines() if line.startswith("round ")]
    assert code == 0 and [r.split(":")[0] for r in rounds] == ["round 1/2", "round 2/2"]
    assert rounds[0].startswith("round 1/2: 4 games per version, alpha spent ") and "seat_balance undecided (" in rounds[0]
    assert re.search(r"seat_balance \w+.*\((red|blue)'s win rate [+-]\d+\.\d points \[", rounds[1]), rounds[1]
    assert err.splitlines() == rounds  # not a terminal: one line per round as it closes, no bar, no redraws
    code, _, err = run(tmp_path, "compare-versions", "mortalgate@2.1", "mortalgate@2.5", "--until-decided", "--measure", "length")
    assert code == 2 and "--measure 'length': --until-decided decides seat_balance" in err
    code, _, err = run(tmp_path, "query", "side_win_rates", "--param", "ruleset")
    assert code == 2 and err.strip() == "error: --param 'ruleset': give it as name=value (NULL for any)"
    code, out, _ = run(tmp_path, "query", "side_win_rates", "--param", "version=2.5")
    assert code == 0 and "mortalgate  2.5" in out
    code, _, err = run(tmp_path, "simulate", "mortalgate@2.5", "--bot", "genius")
    assert code == 2 and "unknown bot 'genius'" in err


def test_a_replay_at_an_event_reads_no_event_after_it(tmp_path: Path) -> None:
    """Every line after event 120 but the last (whose seq alone says how long the log is) is
    made unreadable: the position at 120, its state and its events in words, still shows."""
    home = tmp_path / "store"
    golden = Path(__file__).parent / "mortalgate" / "golden" / "mortalgate-2.5.jsonl"
    assert run(home, "import", str(golden))[0] == 0
    log = home / "logs" / "golden-2.5.jsonl"
    kept = log.read_bytes().split(b"\n")
    assert len(kept) == 560 and kept[-1] == b""  # lines 0..558 and the final newline
    log.write_bytes(b"\n".join([*kept[:121], *(b"#" * len(line) for line in kept[121:-2]), *kept[-2:]]))
    code, out, err = run(home, "replay", "golden-2.5", "--at", "120")
    assert code == 0, err
    assert "event 120/558: Zadita moves 3 to T17 (Sunken Chapel's zone)" in out and "  119. Zadita's turn begins" in out
    code, out, err = run(home, "replay", "golden-2.5", "--at", "120", "--format", "json")
    assert code == 0 and json.loads(out)["seq"] == 120, err
    code, _, err = run(home, "replay", "golden-2.5", "--at", "121")
    assert code == 2 and "golden-2.5.jsonl:122" in err and "not a JSON event object" in err


def test_replay_names_events_in_words_and_pieces_by_board_name(tmp_path: Path) -> None:
    home = tmp_path / "store"
    golden = Path(__file__).parent / "mortalgate" / "golden" / "mortalgate-2.5.jsonl"
    assert run(home, "import", str(golden))[0] == 0
    code, out, _ = run(home, "replay", "golden-2.5", "--at", "120")
    assert code == 0
    assert "event 120/558: Zadita moves 3 to T17 (Sunken Chapel's zone)" in out
    assert "  119. Zadita's turn begins" in out and "  116. Drexir moves 3 to P22" in out
    assert "Zadita     blue  at T17" in out
    assert "HeroMoved" not in out and "(16," not in out
