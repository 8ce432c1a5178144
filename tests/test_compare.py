"""`compare` and `audit` count a match's findings the same way and in the same words."""

from __future__ import annotations

import json
from pathlib import Path

from projections.workspace import Workspace
from tests.cli_support import run

ROOT = Path(__file__).resolve().parent.parent
CAFE = ROOT / "data" / "demo" / "playtest-2026-03-05-cafe.jsonl"
"""A real playtest with mistakes, an undo (a Retracted) and a table ruling."""

VERSIONS = ("mortalgate@2.1", "mortalgate@2.5")


def _cafe_with_a_warning(tmp_path: Path) -> Path:
    """The café playtest with one hero move written by the other seat (a warning under either
    version), every prev blanked so the store chains it again on import."""
    lines = [json.loads(line) for line in CAFE.read_text().splitlines()]
    moved = next(e for e in lines if e["type"] == "HeroMoved" and e["seq"] > 50 and e["by"] == "red")
    moved["by"] = "blue"
    for line in lines:
        line["prev"] = ""
    path = tmp_path / "cafe-edited.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
    return path


def test_compare_and_audit_count_a_match_with_an_undo_rulings_and_warnings_alike(tmp_path: Path) -> None:
    home = tmp_path / "store"
    code, out, err = run(home, "import", str(_cafe_with_a_warning(tmp_path)))
    assert code == 0, err
    match = out.strip()
    counted = {}
    for spec in VERSIONS:
        report = Workspace(home).audit(match, against=spec)
        assert report.retracted and report.tally.warnings, report.tally
        ruled = [v for v in report.violations if v.message.startswith("ruled by the table")]
        assert ruled or spec != "mortalgate@2.5"  # 2.1 finds nothing at the event the table ruled on
        code, out, _ = run(home, "audit", match, "--against", spec)
        counted[spec] = out.splitlines()[-2].split(";")[0]
        assert counted[spec] == report.tally.text()
    code, out, _ = run(home, "compare", match, *VERSIONS)
    assert code == 0
    for spec in VERSIONS:
        assert f"under {spec}: {counted[spec]}" in out.splitlines()
    code, out, _ = run(home, "compare", match, *VERSIONS, "--format", "json")
    compared = json.loads(out)
    for side, spec in zip("ab", VERSIONS, strict=True):
        report = Workspace(home).audit(match, against=spec)
        assert compared[f"tally_{side}"] == {"violations": report.tally.violations, "warnings": report.tally.warnings,
                                             "infos": report.tally.infos}
        assert compared[f"violations_{side}"] == len(report.errors)
