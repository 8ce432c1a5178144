"""The Matches page through its widgets: list and filter, counts and violations, import by
upload (a bad file is refused with its line and reason, nothing stored), export, open."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from streamlit.testing.v1 import AppTest

from projections.workspace import Workspace
from tests.dashboard.conftest import (
    BOARD_DRAWN,
    CAFE,
    PLAYABLE,
    bot_game_id,
    by_label,
    open_page,
    run_ok,
    texts,
)

PLAYTESTS = {"playtest-2026-02-20-teach", CAFE, "playtest-2026-03-12-club"}


def listed(at: AppTest) -> set[str]:
    return set(at.dataframe[0].value["match_id"])


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted((home / "logs").rglob("*")) if p.is_file()}


def test_every_match_is_listed_with_counts_winners_and_violations(app: AppTest) -> None:
    frame = app.dataframe[0].value
    assert set(frame["match_id"]) == PLAYTESTS | {bot_game_id(g) for g in PLAYABLE}
    rows = frame.set_index("match_id")
    # range, claimed hit and two same-turn respawns after dying in upkeep; the ruled capture is not an error
    assert rows.loc[CAFE, "violations"] == 4
    assert rows.loc["playtest-2026-02-20-teach", "winner"] == "red"
    assert rows.loc["playtest-2026-02-20-teach", "declared"] == "blue"
    assert not rows.loc["playtest-2026-02-20-teach", "result_agrees"]
    assert rows.loc["playtest-2026-03-12-club", "winner"] == "(none yet)"
    assert rows.loc[CAFE, "notes"] == 5
    shown = texts(app)
    assert f"Matches: {len(frame)}" in shown and f"Rule violations: {frame['violations'].sum()}" in shown
    counts = app.dataframe[1].value
    assert counts["matches"].sum() == len(frame)


def test_filters_by_game_version_source_winner_and_date(app: AppTest) -> None:
    by_label(app.multiselect, "Source").select("playtest")
    assert listed(run_ok(app)) == PLAYTESTS
    by_label(app.multiselect, "Version").select("2.5")
    assert listed(run_ok(app)) == {CAFE}
    by_label(app.multiselect, "Version").unselect("2.5")
    by_label(app.multiselect, "Winner").select("(none yet)")
    assert listed(run_ok(app)) == {"playtest-2026-03-12-club"}
    by_label(app.multiselect, "Winner").unselect("(none yet)")
    by_label(app.date_input, "Played between").set_value((date(2026, 3, 1), date(2026, 3, 6)))
    assert listed(run_ok(app)) == {CAFE}
    by_label(app.multiselect, "Source").unselect("playtest")
    by_label(app.date_input, "Played between").set_value((date(2025, 1, 1), date(2027, 1, 1)))
    by_label(app.multiselect, "Game").select("mortalgate")
    assert listed(run_ok(app)) == PLAYTESTS | {bot_game_id("mortalgate")}
    assert "Matches: 4" in texts(app)


def another_tool_wrote(home: Path, match_id: str) -> list[dict]:
    """The café log as another tool would write it: its own id, no hash chain."""
    lines = [json.loads(line) for line in (home / "logs" / f"{CAFE}.jsonl").read_text().splitlines()]
    lines[0]["match_id"] = match_id
    return [{**line, "prev": ""} for line in lines]


def encode(lines: list[dict]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_import_a_log_by_upload(app: AppTest, home: Path) -> None:
    app.file_uploader[0].set_value(("cafe.jsonl", encode(another_tool_wrote(home, "cafe-again")), "application/x-ndjson"))
    by_label(app.button, "Import").click()
    run_ok(app)
    assert "Imported cafe.jsonl as cafe-again (mortalgate@2.5, playtest)." in texts(app)
    assert "cafe-again" in listed(app)
    assert len(Workspace(home).export("cafe-again").splitlines()) == 387
    assert Workspace(home).verify("cafe-again").ok


def test_a_bad_log_is_refused_with_line_and_reason_and_nothing_is_stored(app: AppTest, home: Path) -> None:
    lines = another_tool_wrote(home, "edited")
    lines[5]["seq"] = 9
    before = snapshot(home)
    app.file_uploader[0].set_value(("edited.jsonl", encode(lines), "application/x-ndjson"))
    by_label(app.button, "Import").click()
    run_ok(app)
    refused = [e.value for e in app.error]
    assert len(refused) == 1 and refused[0].startswith("Refused, nothing was stored: edited.jsonl:6")
    assert snapshot(home) == before
    app.file_uploader[0].set_value(("notes.txt", b"not json at all\n", "text/plain"))
    by_label(app.button, "Import").click()
    run_ok(app)
    assert "edited.jsonl" not in texts(app) and "notes.txt:1" in app.error[0].value
    assert snapshot(home) == before


def test_an_upload_answers_with_its_audit_and_says_when_most_events_break_the_rules(app: AppTest, home: Path) -> None:
    lines = another_tool_wrote(home, "picks")
    picks = [lines[0], *({**lines[5], "seq": seq} for seq in range(1, 200))]  # one hero picked over and over
    app.file_uploader[0].set_value(("picks.jsonl", encode(picks), "application/x-ndjson"))
    by_label(app.button, "Import").click()
    run_ok(app)
    [success] = [e.value for e in app.success]
    assert success.startswith("Imported picks.jsonl as picks (mortalgate@2.5, playtest). Audit: 199 rule violations, 0 warnings")
    [warning] = [w.value for w in app.warning]
    assert warning.startswith("Most of these events break the rules of mortalgate@2.5: was this recorded under "
                              "another game or version? (199 of 200 events break a rule;")
    assert "picks" in listed(app)


def test_an_upload_with_a_field_its_events_lack_is_refused_and_nothing_is_stored(app: AppTest, home: Path) -> None:
    lines = another_tool_wrote(home, "moody")
    lines[5]["mood"] = "grim"
    before = snapshot(home)
    app.file_uploader[0].set_value(("moody.jsonl", encode(lines), "application/x-ndjson"))
    by_label(app.button, "Import").click()
    run_ok(app)
    [refused] = [e.value for e in app.error]
    assert refused.startswith("Refused, nothing was stored: moody.jsonl:6: HeroPicked has no field 'mood'")
    assert "a note on the event" in refused and not app.success
    assert snapshot(home) == before


def test_export_downloads_the_log_exactly_as_stored(app: AppTest, home: Path) -> None:
    by_label(app.selectbox, "Match").set_value(CAFE)
    run_ok(app)
    button = app.get("download_button")[0]
    assert button.proto.label == f"Export {CAFE}.jsonl"
    assert Workspace(home).export(CAFE) == (home / "logs" / f"{CAFE}.jsonl").read_bytes()


def test_open_in_replay_selects_the_match_there(app: AppTest) -> None:
    by_label(app.selectbox, "Match").set_value("playtest-2026-03-12-club")
    by_label(app.button, "Open in Replay").click()
    run_ok(app)
    assert "Replay" in [t.value for t in app.title]
    [board] = app.get("bidi_component")  # Replay's board, handed the match's 170 events from the first
    handed = json.loads(board.proto.json)
    assert handed["total"] == 170 and handed["start"] == 0
    assert app.query_params["match"] == "playtest-2026-03-12-club"  # a reload keeps it
    for key, value in BOARD_DRAWN.items():  # the board on screen, the row of choices above it is drawn
        app.session_state[key] = value
    run_ok(app)
    assert by_label(app.selectbox, "Match").value == "playtest-2026-03-12-club"


def test_a_branch_is_listed_with_the_match_it_left(app: AppTest, home: Path) -> None:
    from projections.warehouse.sync import Warehouse

    ws = Workspace(home)
    ws.branch(CAFE, 40, new_id="cafe-what-if")
    Warehouse(ws).sync()
    at = open_page(app, "matches")
    table = at.dataframe[0].value.set_index("match_id")
    assert table.loc["cafe-what-if", "branch_of"] == CAFE
    assert table["branch_of"].isna().sum() == len(table) - 1
