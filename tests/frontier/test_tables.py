"""A Frontier table taken from an earlier match: read from its log (moves and undos folded
in), listed newest first without repeats, and laid again by the command line in one append."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import msgspec

from events.shared import Retracted
from projections.corpus.demo import save_events
from projections.corpus.simulate import play
from projections.record.tables import earlier_tables, table_events, table_of
from projections.workspace import Workspace
from rulesets import registry
from rulesets.frontier.events import TerrainAgreed, TerrainMoved, TerrainPlaced
from rulesets.frontier.terrain import STANDARD
from tests.cli_support import run
from tests.frontier.scenario import started
from tests.frontier.test_setup import HOUSE, SWAMP

RULES = registry.resolve("frontier")
SEATS = {"p1": "ana", "p2": "ben"}


def test_the_table_of_a_bot_game_is_the_standard_table() -> None:
    events = play(RULES, SEATS, seed=3, max_events=30)
    table = table_of(RULES, events)
    assert table is not None and table_events(table, None) == table_events(STANDARD, None)


def test_the_table_read_back_has_its_moves_and_not_what_was_retracted() -> None:
    events = [started(), HOUSE, SWAMP, TerrainMoved(by="p1", piece="house", to=(23.0, 20.0)),
              TerrainMoved(by="p1", piece="swamp", to=(40.0, 26.0)), Retracted(target_seq=4), TerrainAgreed(by="p1")]
    events = [msgspec.structs.replace(e, seq=i) for i, e in enumerate(events)]
    table = table_of(RULES, events)
    assert table is not None
    assert [(p.piece, p.outline) for p in table] == [("house", ((20.0, 17.0), (26.0, 17.0), (26.0, 23.0), (20.0, 23.0))),
                                                     ("swamp", SWAMP.outline)]
    assert table[0].levels == HOUSE.levels and table[0].scale == 3


def test_a_log_that_never_agreed_its_table_has_none() -> None:
    assert table_of(RULES, [started(), HOUSE]) is None
    assert table_of(RULES, [started()]) is None


def _match(ws: Workspace, match_id: str, day: int, *pieces: object, agreed: bool = True) -> None:
    ws.new_match("frontier", SEATS, match_id=match_id, title=f"table {match_id}", at=datetime(2026, 11, day, tzinfo=UTC))
    ws.append_events(match_id, [*pieces, *([TerrainAgreed(by="p1")] if agreed else [])])  # type: ignore[list-item]


def test_earlier_tables_are_newest_first_distinct_and_leave_out_the_standard_one(tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    save_events(ws, play(RULES, SEATS, seed=3, max_events=30))  # the standard table
    _match(ws, "old", 2, HOUSE, SWAMP)
    _match(ws, "again", 5, HOUSE, SWAMP)  # the same table, later
    _match(ws, "moved", 4, HOUSE, SWAMP, TerrainMoved(by="p1", piece="swamp", to=(40.0, 26.0)))
    _match(ws, "unfinished", 6, HOUSE, agreed=False)
    ws.new_match("mortalgate@2.5", {"red": "ana", "blue": "ben"}, match_id="other-game")
    (ws.home / "logs" / "broken.jsonl").write_text("not a log\n")
    tables = earlier_tables(ws, besides="moved")
    assert [t.match_id for t in tables] == ["again"]
    assert tables[0].also == 1 and tables[0].name == "again · 2026-11-05 · table again · 2 pieces (and 1 older match)"
    assert [t.match_id for t in earlier_tables(ws)] == ["again", "moved"]


def test_the_command_line_lays_an_earlier_table_in_one_append(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = Workspace(home)
    _match(ws, "old", 2, HOUSE, SWAMP, TerrainMoved(by="p1", piece="house", to=(23.0, 20.0)))
    ws.new_match("frontier", SEATS, match_id="new")
    code, out, err = run(home, "append", "new", "--table-from", "old")
    assert code == 0 and "appended 2 event(s) to new; last seq 2" in out and "no rule broken" in out, err
    laid = [e for e in ws.events("new") if isinstance(e, TerrainPlaced)]
    assert [(e.piece, e.outline, e.by) for e in laid] == [("house", ((20.0, 17.0), (26.0, 17.0), (26.0, 23.0), (20.0, 23.0)), "p1"),
                                                          ("swamp", SWAMP.outline, "p1")]
    code, out, _ = run(home, "append", "new", "--table-from", "standard")
    assert code == 0 and "appended 13 event(s)" in out and "frontier/terrain.overlap" in out  # laid over the first: the audit says so


def test_a_table_from_a_match_that_never_agreed_one_is_refused_in_one_line(tmp_path: Path) -> None:
    home = tmp_path / "store"
    ws = Workspace(home)
    _match(ws, "unfinished", 2, HOUSE, agreed=False)
    ws.new_match("frontier", SEATS, match_id="new")
    code, _, err = run(home, "append", "new", "--table-from", "unfinished")
    assert code == 2 and "unfinished never agreed a table" in err and "Traceback" not in err
    assert len(list(ws.events("new"))) == 1
