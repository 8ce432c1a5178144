"""One table mistake gives one finding, and the verdicts around an audit say what they mean."""

from __future__ import annotations

import json
from pathlib import Path

from projections.corpus.mutations import Subject, cascades, drop
from projections.read.audit import audit
from rulesets import registry
from tests.cli_support import run
from tests.mortalgate import golden


def _imported(home: Path, name: str = "mortalgate-2.5") -> str:
    code, out, err = run(home, "import", str(golden.log_path(name)))
    assert code == 0, err
    return out.strip()


def test_audit_and_compare_refuse_another_games_version_in_one_line(tmp_path: Path) -> None:
    match = _imported(tmp_path)
    code, out, err = run(tmp_path, "audit", match, "--against", "frontline@1.0")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "frontline@1.0 is a version of frontline" in err and "mortalgate game" in err
    code, _, err = run(tmp_path, "compare", match, "mortalgate@2.1", "frontier@1.0")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "frontier@1.0" in err


def test_replay_at_the_end_says_the_game_is_over_who_won_and_by_which_rule(tmp_path: Path) -> None:
    match = _imported(tmp_path)
    rules = golden.golden_rules("mortalgate-2.5")
    events = golden.read_log("mortalgate-2.5")
    ended = audit(events, rules).result.computed
    assert ended is not None
    code, out, _ = run(tmp_path, "replay", match)
    assert code == 0 and "to act" not in out
    assert f"game over: {ended.winner} won" in out and ended.rule in out


def test_import_with_an_id_stores_the_log_under_that_id(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "import", str(golden.log_path("mortalgate-2.5")), "--id", "renamed-2-5")
    assert code == 0 and out.strip() == "renamed-2-5", err
    code, exported, _ = run(tmp_path, "export", "renamed-2-5")
    assert json.loads(exported.splitlines()[0])["match_id"] == "renamed-2-5"
    assert run(tmp_path, "verify", "renamed-2-5")[0] == 0
    assert run(tmp_path, "import", str(golden.log_path("mortalgate-2.5")))[0] == 0  # the log's own id is still free


def test_a_dropped_pick_in_the_draft_stays_in_the_draft_instead_of_every_later_turn() -> None:
    """Before: 517 follow-ons (every placement and turn refused); the draft's own few remain."""
    rules = golden.golden_rules("mortalgate-2.5")
    subject = Subject(golden.read_log("mortalgate-2.5"), rules)
    picked = next(e.seq for e in subject.events if type(e).__name__ == "HeroPicked")
    mutation = drop(subject, picked + 1, None)  # type: ignore[arg-type]
    assert mutation is not None
    from projections.corpus.mutations import measure

    found = measure(subject, mutation)
    assert found.at_site == 1 and found.follow_on <= 4, found.follow_rules
    assert all(int(rule.split()[0]) < 20 for rule in found.follow_rules), found.follow_rules


def test_a_left_out_roll_resynchronises_the_replay_in_every_game_with_chance() -> None:
    for name in ("mortalgate", "frontier"):
        rules = registry.resolve(name)
        from tests import contract

        events = contract.check_bot_game_is_clean(rules, "heuristic", seed=11)
        found = cascades([Subject(events, rules)], 12, seed=5, kinds=("skip",))
        assert found and sorted(c.follow_on for c in found)[len(found) // 2] == 0, (name, [c.follow_rules for c in found])


def test_append_reports_the_findings_of_what_it_wrote(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "new", "--ruleset", "mortalgate@2.5", "--seats", "red=ana,blue=ben")
    match = out.strip()
    code, out, _ = run(tmp_path, "append", match, "--event", json.dumps({"type": "DraftRolled", "red": 5, "blue": 2}))
    assert code == 0 and "no rule broken" in out
    bad = {"type": "HeroPicked", "by": "red", "hero": "nobody"}
    code, out, _ = run(tmp_path, "append", match, "--event", json.dumps(bad))
    assert code == 0 and "appended 1 event" in out and "seq     2" in out and "mortalgate/draft" in out


def test_shipped_playtests_do_not_say_the_rules_changed_on_a_fresh_install(tmp_path: Path) -> None:
    from projections.corpus.demo import import_playtests
    from projections.workspace import Workspace

    ws = Workspace(tmp_path)
    for match in import_playtests(ws):
        assert not [v for v in ws.audit(match).violations if v.rule == "core/rules-changed"], match


def test_a_frontier_roll_naming_a_seat_as_winner_is_refused_at_import(tmp_path: Path) -> None:
    from tests.frontier import golden as frontier

    source = frontier.log_path("frontier-assault")
    rows = source.read_text().splitlines()
    at = next(i for i, row in enumerate(rows) if '"ActionRolled"' in row)
    rows[at] = rows[at].replace('"winner":null', '"winner":"p1"')
    bad = tmp_path / "seat-winner.jsonl"
    bad.write_text("\n".join(rows) + "\n")
    code, out, err = run(tmp_path / "store", "import", str(bad))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{bad}:{at + 1}" in err and "winner" in err
    assert run(tmp_path / "store", "list")[1].strip() in ("", "no matches")
    code, _, err = run(tmp_path / "store", "schema", "frontier")
    assert code == 0


def test_replay_of_a_hidden_hand_game_says_it_shows_everything_and_seat_hides_the_rest(tmp_path: Path) -> None:
    from tests.mercenarium import golden as merc

    code, out, err = run(tmp_path, "import", str(merc.log_path("mercenarium-2p")))
    assert code == 0, err
    match = out.strip()
    code, out, _ = run(tmp_path, "replay", match, "--at", "40")
    assert code == 0 and "shows everything" in out and "--seat" in out
    code, everything, _ = run(tmp_path, "replay", match, "--at", "40", "--format", "json")
    assert json.loads(everything)["shows"] == "everything"
    code, mine, _ = run(tmp_path, "replay", match, "--at", "40", "--format", "json", "--seat", "red")
    view = json.loads(mine)
    assert code == 0 and view["seat"] == "red" and "state" not in view
    code, out, _ = run(tmp_path, "replay", match, "--at", "40", "--seat", "red")
    assert code == 0 and "as seat red sees it" in out and "shows everything" not in out
    code, _, err = run(tmp_path, "replay", match, "--seat", "nobody")
    assert code == 2 and "nobody" in err and len(err.strip().splitlines()) == 1


def test_replay_of_an_open_information_game_does_not_warn(tmp_path: Path) -> None:
    match = _imported(tmp_path)
    code, out, _ = run(tmp_path, "replay", match, "--at", "100")
    assert code == 0 and "shows everything" not in out


def test_compare_shows_where_each_version_ends_when_the_winner_is_the_same(tmp_path: Path) -> None:
    match = _imported(tmp_path, "mortalgate-2.1")
    code, out, _ = run(tmp_path, "compare", match, "mortalgate@2.1", "mortalgate@2.5")
    assert code == 0 and "the outcome is the same, but the game ends at a different event" in out
    assert "under mortalgate@2.1 the game ends at seq 762 (turn 301): red reached 50 Grace (mortalgate/victory.grace)" in out
    assert "under mortalgate@2.5 the game ends at seq 521 (turn 205): red reached 20 Grace" in out
    assert "rules changed between the versions:" in out and "mortalgate/victory.grace" in out


def test_an_outpost_placed_before_the_relic_draw_is_named_by_the_relic_rule() -> None:
    """A playtest-7 log under `current`: the divergence names the rule that changed (relics), not
    'buy an outpost first' for an outpost bought two events earlier."""
    import msgspec

    from rulesets.mercyfrontier.events import OutpostPlaced
    from rulesets.mercyfrontier.state import Pending
    from tests.mercyfrontier.scenario import violations
    from tests.mercyfrontier.test_setup import flipped_row

    waiting = msgspec.structs.replace(flipped_row(), pending=(Pending("relic", tile=(1, 2)), Pending("outpost", seat="orange", tile=(1, 2))))
    found = violations(waiting, OutpostPlaced(seq=9, by="orange", space=(3, 6)))
    assert found == ["mercyfrontier/relics.control"]
    from projections.read.compare import changed_rules

    assert "mercyfrontier/relics.control" in changed_rules(registry.resolve("mercyfrontier@playtest-7"), registry.resolve("mercyfrontier@current"))


def test_rulebook_reports_the_faqs_stale_grace_and_that_the_table_is_not_for_old_versions(tmp_path: Path) -> None:
    code, out, _ = run(tmp_path, "rulebook", "mortalgate@2.5")
    assert code == 1 and "mortalgate/faq.grace-capture" in out and "the FAQ prints 3" in out and "give 2" in out
    for old in ("1.5", "2.0"):
        code, out, _ = run(tmp_path, "rulebook", f"mortalgate@{old}")
        assert "does not apply" in out and "cells checked" not in out and "appendix.quick-reference" not in out


def test_the_map_is_assumed_data_and_the_findings_that_rest_on_it_say_so(tmp_path: Path) -> None:
    from projections.workspace import Workspace

    params = {p["name"]: p for p in Workspace(tmp_path).describe("mortalgate@2.5")["params"]}
    assert params["map"]["source"] == "assumed" and "altar" in params["map"]["note"]
    code, out, _ = run(tmp_path, "rules", "mortalgate@2.5")
    assert code == 0 and "[assumed]" in out.split("map", 1)[1].splitlines()[0] + out
    match = _imported(tmp_path, "mortalgate-mistakes")
    code, out, _ = run(tmp_path, "audit", match)
    terrain = [line for line in out.splitlines() if "mortalgate/movement.impassable" in line or "line-of-sight" in line]
    assert terrain and all("assumed map layout" in line for line in terrain)


def test_the_audit_counts_findings_in_the_one_vocabulary_and_designer_notes_apart(tmp_path: Path) -> None:
    match = _imported(tmp_path, "mortalgate-mistakes")
    run(tmp_path, "notes", "add", match, "--at", "3", "--author", "ana", "--text", "why here?")
    events = golden.read_log("mortalgate-mistakes")
    counted = audit(events, golden.golden_rules("mortalgate-mistakes")).tally
    code, out, _ = run(tmp_path, "audit", match)
    last = out.splitlines()[-2]
    assert code == 1
    assert last == f"{counted.text()}; 1 designer note"
    assert f"{counted.violations} rule violations, {counted.warnings} warning" in last


def test_an_edited_log_imports_once_every_prev_is_blanked_as_the_help_says(tmp_path: Path) -> None:
    import re

    match = _imported(tmp_path)
    code, exported, _ = run(tmp_path, "export", match)
    edited = exported.replace('"hero":"drexir"', '"hero":"seiren"', 1)
    source = tmp_path / "edited.jsonl"
    source.write_text(edited)
    assert run(tmp_path, "import", str(source), "--id", "edited")[0] == 2  # the chain names the edit
    from click.testing import CliRunner

    from dashboard.cli.commands import cli

    assert "blank every prev" in CliRunner().invoke(cli, ["import", "--help"]).output
    source.write_text(re.sub(r'"prev":"[^"]*"', '"prev":""', edited))
    code, out, err = run(tmp_path, "import", str(source), "--id", "edited")
    assert code == 0 and out.strip() == "edited", err
    assert run(tmp_path, "verify", "edited")[0] == 0


def test_scrubbing_a_log_with_a_mistake_shows_the_resynchronised_states_of_the_audit() -> None:
    import msgspec

    from projections.read.replay import replay
    from projections.read.timeline import Timeline

    rules = golden.golden_rules("mortalgate-2.5")
    subject = Subject(golden.read_log("mortalgate-2.5"), rules)
    roll = next(e.seq for e in subject.events if type(e).__name__ == "AttackRolled" and e.seq > 100)
    mutation = drop(subject, roll, None)  # type: ignore[arg-type]
    assert mutation is not None
    events = list(mutation.events)
    audited = [msgspec.json.encode(step.state) for step in replay(events, rules)]
    timeline = Timeline(events, rules, every=16)
    for seq in range(roll - 20, roll + 60):
        assert msgspec.json.encode(timeline.state_at(seq).state) == audited[seq], seq
