"""What a user sends the store is kept as sent or refused whole, never silently changed:
a field an event does not have, a key given twice, through `tabletape import` and
`append` and the Python API; an import answers with its audit; a draft missing several
fields names them all."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.codec import inexact_key, refuse_inexact
from events.errors import LogFormatError
from projections.workspace import Workspace
from rulesets import registry
from tests.cli_support import run
from tests.frontier import golden as frontier_golden

CAFE = Path(__file__).parents[1] / "data" / "demo" / "playtest-2026-03-05-cafe.jsonl"
NOTE_HINT = "write it in a note on the event (`tabletape notes add"


def cafe() -> list[dict]:
    """The café playtest as JSON objects, as another tool would hold it (no hash chain)."""
    return [{**json.loads(line), "prev": ""} for line in CAFE.read_text().splitlines()]


def written(lines: list[dict] | list[bytes], path: Path) -> Path:
    """Lines as a file: objects as another tool writes them (json.dumps), bytes as they are."""
    path.write_bytes(b"".join((line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n" for line in lines))
    return path


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


def chained(lines: list[dict], tmp_path: Path) -> list[bytes]:
    """The log as tabletape exports it (hash-chained, its own encoding)."""
    other = tmp_path / "elsewhere"
    assert run(other, "import", str(written(lines, tmp_path / "plain.jsonl")))[0] == 0
    return (other / "logs" / f"{lines[0]['match_id']}.jsonl").read_bytes().splitlines()


# -- a field the event does not have ----------------------------------------------------------


@pytest.mark.parametrize("form", ["another tool's", "chained"])
def test_an_import_with_a_field_its_event_lacks_is_refused_whole_naming_file_line_field_and_notes(
        home: Path, tmp_path: Path, form: str) -> None:
    lines = cafe()
    if form == "chained":
        raw = chained(lines, tmp_path)
        raw[5] = raw[5][:-1] + b',"mood":"grim"}'
        path = written(raw, tmp_path / "extra.jsonl")
    else:
        lines[5]["mood"] = "grim"
        path = written(lines, tmp_path / "extra.jsonl")
    before = snapshot(home)
    code, out, err = run(home, "import", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{path}:6: HeroPicked has no field 'mood'" in err and "(field mood)" in err and NOTE_HINT in err
    assert "--at 5" in err
    assert snapshot(home) == before


def test_an_import_with_a_field_on_every_line_is_refused_and_the_store_keeps_nothing_of_it(home: Path, tmp_path: Path) -> None:
    path = written([{**line, "table": 3} for line in cafe()], tmp_path / "everywhere.jsonl")
    before = snapshot(home)
    with pytest.raises(LogFormatError) as refused:
        Workspace(home).import_log(path.read_bytes(), where=str(path))
    assert (refused.value.where, refused.value.line, refused.value.field) == (str(path), 1, "table")
    assert snapshot(home) == before
    code, _, err = run(home, "import", str(path), "--id", "renamed")  # the renaming path reads every line too
    assert code == 2 and f"{path}:1: MatchStarted has no field 'table'" in err
    assert snapshot(home) == before


def test_a_field_inside_an_event_s_value_that_its_type_lacks_is_refused_on_import_and_append(tmp_path: Path) -> None:
    lines = [{**json.loads(line), "prev": ""} for line in frontier_golden.log_path("frontier-ambush").read_text().splitlines()]
    placed = next(i for i, line in enumerate(lines) if line["type"] == "TerrainPlaced")
    lines[placed]["levels"][0]["colour"] = "grey"
    path = written(lines, tmp_path / "terrain.jsonl")
    home = tmp_path / "store"
    code, _, err = run(home, "import", str(path))
    assert code == 2 and f"{path}:{placed + 1}: TerrainPlaced: 'levels[0].colour' is not a field" in err
    assert "(field levels[0].colour)" in err and not (home / "logs").exists()
    ws = Workspace(home)
    ws.import_log(written(lines[:placed], tmp_path / "start.jsonl").read_bytes())
    match_id = lines[0]["match_id"]
    draft = {key: value for key, value in lines[placed].items() if key not in ("seq", "at", "prev")}
    code, _, err = run(home, "append", match_id, "--event", json.dumps(draft))
    assert code == 2 and "--event:1: TerrainPlaced: 'levels[0].colour' is not a field" in err
    with pytest.raises(LogFormatError, match="levels"):
        ws.append(match_id, json.dumps(draft))
    assert ws.store.last(match_id)[0] == placed - 1


# -- a key given twice ------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "edit", "key"), [
    (0, lambda text: text[:-1] + ', "match_id": "someone-else"}', "match_id"),
    (5, lambda text: text.replace('"hero": ', '"hero": "kyra", "hero": ', 1), "hero"),
    (0, lambda text: text.replace('"seats": {', '"seats": {"red": "zoe", ', 1), "seats.red"),
])
def test_an_import_with_a_key_given_twice_is_refused_naming_line_and_key(home: Path, tmp_path: Path, line, edit, key) -> None:
    texts = [json.dumps(each) for each in cafe()]
    texts[line] = edit(texts[line])
    path = tmp_path / "twice.jsonl"
    path.write_text("".join(text + "\n" for text in texts))
    before = snapshot(home)
    code, out, err = run(home, "import", str(path))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{path}:{line + 1}: " in err and f"key {key!r} is given twice" in err and f"(field {key})" in err
    assert snapshot(home) == before
    with pytest.raises(LogFormatError) as refused:
        Workspace(home).import_log(path.read_bytes(), where="twice")
    assert (refused.value.line, refused.value.field) == (line + 1, key)


def test_an_exported_log_with_a_key_given_twice_is_refused_though_its_chain_verifies(home: Path, tmp_path: Path) -> None:
    raw = chained(cafe(), tmp_path)
    raw[-1] = raw[-1][:-1] + b',"reason":"a second reason"}'  # the last line: no hash names it
    assert b'"reason"' in raw[-1][:-30]
    path = written(raw, tmp_path / "twice.jsonl")
    before = snapshot(home)
    code, _, err = run(home, "import", str(path))
    assert code == 2 and f"{path}:{len(raw)}: MatchEnded: key 'reason' is given twice" in err
    assert snapshot(home) == before


def test_append_refuses_a_key_given_twice(home: Path) -> None:
    before = snapshot(home)
    event = '{"type": "DraftChoiceMade", "by": "red", "team": "red", "choice": "first_pick", "team": "blue"}'
    code, _, err = run(home, "append", "m1", "--event", event)
    assert code == 2 and "--event:1: DraftChoiceMade: key 'team' is given twice" in err and "(field team)" in err
    with pytest.raises(LogFormatError, match="'team' is given twice"):
        Workspace(home).append("m1", event)
    assert snapshot(home) == before


def test_an_old_shape_is_read_by_its_upcaster_and_still_refuses_a_field_too_many(home: Path) -> None:
    old = {"type": "HeroPlaced", "by": "red", "hero": "kyra", "at": [3, 4]}  # `node` was first called `at`
    ws = Workspace(home)
    with pytest.raises(LogFormatError, match="HeroPlaced has no field 'mood'"):
        ws.append("m1", json.dumps({**old, "mood": "grim"}))
    with pytest.raises(LogFormatError, match="key 'hero' is given twice"):
        ws.append("m1", json.dumps(old).replace('"hero": ', '"hero": "kyra", "hero": '))
    [placed] = ws.append("m1", json.dumps(old))
    assert placed.node == (3, 4)


# -- the cheap proofs agree with the plain reading ---------------------------------------------


def variants(line: bytes) -> list[tuple[bytes, bool]]:
    """A line as it came and as other tools or hands might write it (spaced, keys reordered,
    defaults left out, non-ASCII unescaped), all exact; then with a field too many or a key
    given twice, at the top level and inside a value: not exact."""
    obj = json.loads(line)
    text = json.dumps(obj)
    exact = [line, text.encode(), json.dumps(dict(sorted(obj.items()))).encode(),
             json.dumps({k: v for k, v in obj.items() if v not in (None, "", [], {})}).encode(),
             json.dumps(obj, ensure_ascii=False).encode()]
    inexact = [json.dumps({**obj, "extra": 1}).encode(), text.replace('"type": ', f'"seq": {obj["seq"]}, "type": ', 1).encode()]
    for key, value in obj.items():
        if isinstance(value, dict) and value:
            inner = next(iter(value))
            twice = f'"{key}": {{{json.dumps(inner)}: {json.dumps(value[inner])}, '
            inexact.append(text.replace(f'"{key}": {{', twice, 1).encode())
        if isinstance(value, list) and value and isinstance(value[0], dict) and value[0]:
            inexact.append(json.dumps({**obj, key: [{**value[0], "stray": True}, *value[1:]]}).encode())
            inner = next(iter(value[0]))
            twice = "[{" + f"{json.dumps(inner)}: {json.dumps(value[0][inner])}, " + json.dumps(value[0])[1:] + "]"
            inexact.append(json.dumps({**obj, key: "@@"}).replace('"@@"', twice).encode())
    return [(each, True) for each in exact] + [(each, False) for each in inexact]


def logs_of(game: str) -> list[Path]:
    """A game's golden logs (and, for MortalGate, the shipped playtests)."""
    tests = Path(__file__).parent
    shipped = sorted(p for p in CAFE.parent.glob("*.jsonl") if not p.name.endswith(".notes.jsonl"))
    return sorted((tests / game / "golden").glob("*.jsonl")) + (shipped if game == "mortalgate" else [])


@pytest.mark.parametrize("game", registry.built_in())
def test_the_cheap_proofs_of_an_exact_line_agree_with_the_plain_reading(game: str) -> None:
    codec = registry.game(game).codec
    seen = {"True": 0, "False": 0}
    for path in logs_of(game):
        for line in path.read_bytes().splitlines():
            for variant, exact in variants(line):
                try:
                    event = codec.decode(variant)
                except LogFormatError:
                    continue  # a value left out that the event needs
                plain = inexact_key(codec, variant, event, where="x", line_no=1)
                assert (plain is None) == exact, (variant, plain)
                try:
                    refuse_inexact(codec, variant, event, where="x", line_no=1)
                except LogFormatError as refused:
                    assert not exact and plain is not None and refused.field == plain[0], variant
                else:
                    assert exact, variant
                seen[str(exact)] += 1
    assert seen["True"] > 100 and seen["False"] > 100


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


# -- an import answers with its audit -----------------------------------------------------------


def test_import_answers_with_the_audit_of_what_it_stored(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "import", str(written(cafe(), tmp_path / "cafe.jsonl")))
    assert code == 0 and out.strip() == "playtest-2026-03-05-cafe"
    assert ("imported cafe.jsonl as playtest-2026-03-05-cafe: 387 events under mortalgate@2.5: "
            "4 rule violations, 0 warnings, 2 rulings or infos") in err
    assert "most of these events" not in err


def mostly_broken(tmp_path: Path) -> Path:
    """Line 0 of the café match, then one hero picked over and over: the rules refuse all but one."""
    lines = cafe()
    return written([lines[0], *({**lines[5], "seq": seq} for seq in range(1, 200))], tmp_path / "picks.jsonl")


def test_an_import_that_mostly_breaks_the_rules_says_so_plainly(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, "import", str(mostly_broken(tmp_path)))
    assert code == 0 and out.strip() == "playtest-2026-03-05-cafe"
    assert "200 events under mortalgate@2.5: 199 rule violations" in err
    assert ("warning: most of these events break the rules of mortalgate@2.5: was this recorded under another game "
            "or version? (199 of 200 events break a rule;") in err
    ws = Workspace(tmp_path / "again")
    imported = ws.imported(ws.import_log(mostly_broken(tmp_path).read_bytes()))
    assert imported.mostly_broken and imported.broken == 199 and imported.report.tally.violations == 199
