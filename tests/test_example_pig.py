"""Pig (examples/pig), a designer's dice game written only against tabletape's public surface
and installed through its entry point as a designer would: recorded from its sample log,
audited, replayed from one seat, synced, queried and served to a seat's token. (Simulate and
compare-versions with a variant: test_plugin_games; the Record page by taps: test_record and
test_record_browser.)"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dashboard.service.client import Client
from tests.cli_support import run
from tests.plugin_support import EXAMPLES, examples_installed
from tests.service_support import cli_server, start, stop

SAMPLE = EXAMPLES / "pig" / "sample.jsonl"
"""Drafts of a short game, red and blue, with one mistake planted at line 8."""


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A store holding the sample game of the installed example, as match p1."""
    examples_installed()
    home = tmp_path / "store"
    assert run(home, "new", "--ruleset", "pig", "--seats", "red=ana,blue=ben", "--id", "p1")[:2] == (0, "p1\n")
    code, out, err = run(home, "append", "p1", stdin=SAMPLE.read_text())
    assert code == 0, err
    assert "pig/turn.order" in out
    return home


def test_the_sample_game_is_audited_replayed_from_a_seat_synced_and_queried(home: Path) -> None:
    code, out, _ = run(home, "audit", "p1")
    assert code == 1
    assert [line for line in out.splitlines() if "pig/" in line] == [
        next(line for line in out.splitlines() if "pig/turn.order" in line and "it is blue's turn, not red's" in line)]
    header = json.loads(run(home, "export", "p1")[1].splitlines()[0])
    assert header["package"] == "pig 0.1.0"  # a store without it can say what to install

    code, out, _ = run(home, "replay", "p1", "--seat", "blue")
    assert code == 0 and "as seat blue sees it" in out and "scores: red" in out

    code, out, _ = run(home, "sync")
    assert code == 0 and "1 new" in out
    code, out, _ = run(home, "query", "violations_by_rule", "--format", "json")
    assert code == 0 and "pig/turn.order" in out


def test_a_seat_token_reads_its_seat_and_no_other_over_http(home: Path, tmp_path: Path) -> None:
    token = run(home, "token", "issue", "--scope", "seat", "--match", "p1", "--seat", "blue")[1].strip()
    url, server = start(cli_server(home), tmp_path / "server.log")
    try:
        request = urllib.request.Request(f"{url}/matches/p1/state", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            shown = json.loads(answer.read())
        assert shown["view"]["seat"] == "blue" and shown["last_seq"] == 15
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(f"{url}/matches/p1/state?seat=red", headers={"Authorization": f"Bearer {token}"}), timeout=30)
        assert 400 <= refused.value.code < 500
        assert Client(url, token).state("p1").view.seat == "blue"
    finally:
        stop(server)
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_lead_changes_and_comebacks_are_n_a_not_zero_for_a_game_without_a_score(tmp_path: Path) -> None:
    # Pig gives no `metrics`, so no score to read who leads from: 0 would say "the lead never
    # changes, nobody comes back", which nobody measured
    examples_installed()
    home = tmp_path / "store"
    (home / "variants").mkdir(parents=True)
    (home / "variants" / "fifty.toml").write_text('extends = "pig@1"\ntitle = "first to 50"\n[params]\ntarget = 50\n')
    code, out, err = run(home, "compare-versions", "pig@1", "pig@fifty", "--games", "12", "--workers", "2")
    assert code == 0, err
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith(("lead_changes", "comebacks"))}
    assert rows["lead_changes"][:5] == rows["comebacks"][:5] == ["n/a", "0", "n/a", "0", "n/a"]
    assert ("Lead changes per game and comebacks (winner behind at half time): n/a, the game gives no `score` metric"
            in out)
    assert "Holm, 4 measures" in out  # the two it cannot read are not corrected for

    code, out, _ = run(home, "query", "lead_changes", "--format", "json")
    assert code == 0
    assert {(r["mean_lead_changes"], r["comebacks"]) for r in json.loads(out)} == {(None, None)}
