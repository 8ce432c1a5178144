"""A designer's own game plugs into tabletape without forking it: installed as a package that
declares a `tabletape.games` entry point, it is found by every command, and a game at any
level of the protocol works as far as the parts it defines take it (the game is Pig:
examples/pig at level 4, and tests/plugin_games/pig_levels at levels 1 and 2)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from hashlib import blake2b
from pathlib import Path

from rulesets import registry
from tests.cli_support import lines, run
from tests.plugin_support import GAMES, PACKAGE, forget_pig, install, pig, site

__all__ = ["pig", "site"]  # fixtures

ROLL, HOLD = {"type": "Rolled", "by": "a"}, {"type": "Held", "by": "a"}


def test_a_level_one_game_replays_lists_exports_and_syncs(pig: Path, tmp_path: Path) -> None:
    home = tmp_path / "store"
    assert run(home, "new", "--ruleset", "pig-replay", "--seats", "a=ana,b=ben", "--id", "r1")[:2] == (0, "r1\n")
    code, out, err = run(home, "append", "r1", stdin=lines(ROLL, {"type": "Landed", "face": 4}, HOLD))
    assert code == 0, err

    code, out, _ = run(home, "replay", "r1")
    assert code == 0
    assert "to act: b" in out  # progress read from the state's own turn and actor fields
    assert "scores [4,0]" in out  # no view: the state as a table
    code, out, _ = run(home, "audit", "r1")
    assert code == 0
    assert out.startswith("note: pig-replay is a level 1 game: audit needs level 2 (its `check` function)")
    assert "r1  pig-replay@1  playtest" in run(home, "list")[1]
    assert run(home, "export", "r1")[1] == (home / "logs" / "r1.jsonl").read_text()
    code, out, _ = run(home, "sync")
    assert code == 0 and "1 new" in out


def test_a_level_two_game_audits_what_the_table_wrote(pig: Path, tmp_path: Path) -> None:
    home = tmp_path / "store"
    run(home, "new", "--ruleset", "pig-checked", "--seats", "a=ana,b=ben", "--id", "p1")
    code, out, err = run(home, "append", "p1", stdin=lines(ROLL, {"type": "Landed", "face": 6}, {"type": "Rolled", "by": "b"}))
    assert code == 0, err
    assert "pig/turn.order" in out and "it is a's turn, not b's" in out

    code, out, _ = run(home, "audit", "p1")
    assert code == 1
    assert "note:" not in out and "pig/turn.order" in out
    assert "p1  pig-checked@1  playtest" in run(home, "list")[1]
    header = json.loads(run(home, "export", "p1")[1].splitlines()[0])
    assert header["package"] == PACKAGE  # a store without it can say what to install
    code, out, _ = run(home, "sync")
    assert code == 0 and "1 new" in out
    code, out, _ = run(home, "audit", "--all", "--workers", "2")
    assert "audited 1 of 1 matches" in out and "pig/turn.order" in out


def test_a_level_four_game_simulates_and_compares_versions_with_only_a_random_bot(pig: Path, tmp_path: Path) -> None:
    home = tmp_path / "store"
    code, out, err = run(home, "simulate", "pig", "--games", "3", "--workers", "2")
    assert code == 0, err
    assert "3 games of pig@1 (3 finished)" in out
    assert "random bots" in run(home, "list")[1]
    code, out, _ = run(home, "audit", "--all", "--workers", "2")
    assert code == 0 and "3 clean" in out

    (home / "variants").mkdir()
    (home / "variants" / "fifty.toml").write_text('extends = "pig@1"\ntitle = "first to 50"\n[params]\ntarget = 50\n')
    code, out, err = run(home, "compare-versions", "pig@fifty", "pig@1", "--games", "6", "--workers", "2")
    assert code == 0, err
    assert "pig@fifty (A) vs pig@1 (B), bot games: 6 and 6 games" in out
    assert "batches sim-pig-fifty-random-s1-n6, sim-pig-1-random-s1-n6" in out

    code, _, err = run(home, "simulate", "pig-checked", "--games", "3")
    assert code == 2
    assert err.strip() == "error: pig-checked is a level 2 game: simulate needs level 4 (its `legal` function)"


def test_rulesets_says_each_games_level_and_what_comes_next(pig: Path, tmp_path: Path) -> None:
    out = run(tmp_path / "store", "rulesets")[1]
    assert "pig-replay  (pig-replay; bare name = 1; level 1; next: check (audit:" in out
    assert "pig-checked  (Pig, checked; bare name = 1; level 2; next: view (a board" in out
    assert "pig  (Pig; bare name = 1; level 4; next: describe, touch, candidates, bots, metrics, readings, rule_ids)" in out
    assert "mortalgate  (MortalGate; bare name = 2.5; level 5)" in out


def test_a_game_that_fails_to_import_is_listed_and_the_others_keep_working(site: Path, tmp_path: Path) -> None:
    install(site, {"pig-broken": "pig_levels.broken:RULESET", "frontier": "pig_levels:REPLAY"})
    (site / "pig_levels" / "broken.py").write_text("import numpyy\n")
    home = tmp_path / "store"
    env = {**os.environ, "PYTHONPATH": str(site)}

    def tabletape(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "dashboard.cli.commands", "--home", str(home), *args],
                              capture_output=True, text=True, env=env, check=False)

    listed = tabletape("rulesets")
    assert listed.returncode == 0, listed.stderr
    assert "pig-broken  cannot load: ModuleNotFoundError: No module named 'numpyy'" in listed.stdout.splitlines()
    assert "mortalgate  (MortalGate; bare name = 2.5; level 5)" in listed.stdout
    assert "frontier  (Frontier;" in listed.stdout  # a second package cannot take a built-in game's name
    made = tabletape("new", "--ruleset", "mortalgate", "--seats", "red=ana,blue=ben", "--id", "m1")
    assert made.returncode == 0, made.stderr
    refused = tabletape("new", "--ruleset", "pig-broken", "--seats", "a=ana,b=ben")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "error: pig-broken cannot load: ModuleNotFoundError: No module named 'numpyy'"


def test_a_log_whose_game_is_not_installed_is_listed_exported_and_skipped(site: Path, tmp_path: Path) -> None:
    install(site, GAMES)
    registry.refresh()
    home = tmp_path / "store"
    run(home, "new", "--ruleset", "pig-checked", "--seats", "a=ana,b=ben", "--id", "p1")
    run(home, "append", "p1", stdin=lines(ROLL))
    run(home, "new", "--ruleset", "frontline", "--seats", "a=ana,b=ben", "--id", "f1")
    stored = (home / "logs" / "p1.jsonl").read_text()
    shutil.rmtree(site / "pig_levels-0.2.dist-info")  # uninstalled
    forget_pig()

    code, out, _ = run(home, "list")
    assert code == 0
    assert f"p1  pig-checked@1  playtest    (needs the package {PACKAGE})" in out.splitlines()
    assert run(home, "export", "p1")[1] == stored
    code, out, _ = run(home, "audit", "--all", "--workers", "2")
    assert code == 0 and "unreadable" not in out
    assert f"  skipped p1: needs the package {PACKAGE}" in out.splitlines()
    assert "audited 1 of 2 matches" in out
    code, out, err = run(home, "sync")
    assert code == 0 and "unreadable" not in out + err
    assert f"  skipped p1: needs the package {PACKAGE}" in out.splitlines()
    code, out, err = run(home, "replay", "p1")
    assert f"needs the package {PACKAGE}" in out + err
    assert "1. Rolled: by a" in out  # its events as written


def test_a_built_in_games_log_names_no_package(tmp_path: Path) -> None:
    home = tmp_path / "store"
    run(home, "new", "--ruleset", "frontline", "--seats", "a=ana,b=ben", "--id", "f1")
    assert '"package"' not in (home / "logs" / "f1.jsonl").read_text()


def test_the_built_in_games_are_found_through_their_entry_points() -> None:
    packages = {p.name for p in Path(registry.__file__).parent.iterdir() if (p / "__init__.py").exists()}
    assert packages, "no built-in game package found"
    assert packages <= set(registry.names()), "the editable install is stale: run `make setup`"
    assert all(registry.game(name).package == "" for name in packages)


def test_the_demo_plays_every_game_with_legal_moves_with_its_default_bot(pig: Path, tmp_path: Path) -> None:
    from projections.corpus.demo import ensure_demo
    from projections.workspace import Workspace

    made = ensure_demo(Workspace(tmp_path / "store"), games_per_version=1, playtests=None)
    assert "demo-pig-1-1" in made  # random, the only bot it has
    assert "demo-mortalgate-2_5-1" in made
    assert not any(m.startswith(("demo-pig-checked", "demo-pig-replay")) for m in made)  # no legal moves, no bot


def test_the_service_process_records_and_audits_an_installed_game(pig: Path, tmp_path: Path) -> None:
    from dashboard.service.client import Client
    from tests.service_support import free_port, stop, wait_up

    home, port = tmp_path / "store", free_port()
    code, token, err = run(home, "token", "issue", "--scope", "write")
    assert code == 0, err
    log = tmp_path / "server.log"
    with open(log, "wb") as output:
        server = subprocess.Popen([sys.executable, "-m", "dashboard.cli.commands", "--home", str(home), "serve", "--port", str(port)],
                                  stdout=output, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(pig)})
    try:
        url = f"http://127.0.0.1:{port}"
        wait_up(url, server, log)
        client = Client(url, token.strip())
        assert {"pig", "pig-replay", "pig-checked", "gofish"} <= {g["name"] for g in client.rulesets()}
        started = client.start("pig-checked", {"a": "ana", "b": "ben"})
        appended = client.append(started.match_id, [{"type": "Rolled", "by": "b"}], expected_seq=0)
        assert [v.rule for v in appended.findings] == ["pig/turn.order"]
    finally:
        stop(server)


def test_a_log_that_names_no_package_says_which_game_it_needs(site: Path, tmp_path: Path) -> None:
    install(site, GAMES)
    registry.refresh()
    home = tmp_path / "store"
    run(home, "new", "--ruleset", "pig-checked", "--seats", "a=ana,b=ben", "--id", "p1")
    log = home / "logs" / "p1.jsonl"
    log.write_bytes(log.read_bytes().replace(f',"package":"{PACKAGE}"'.encode(), b""))  # as a log from before the field
    shutil.rmtree(site / "pig_levels-0.2.dist-info")
    forget_pig()
    assert "p1  pig-checked@1  playtest    (needs the game pig-checked (not installed))" in run(home, "list")[1].splitlines()


def test_a_games_fingerprint_follows_its_code_when_it_gives_none(pig: Path, tmp_path: Path) -> None:
    home = tmp_path / "store"
    run(home, "new", "--ruleset", "pig-checked", "--seats", "a=ana,b=ben", "--id", "p1")
    assert "core/rules-changed" not in run(home, "audit", "p1")[1]
    with open(pig / "pig_levels" / "__init__.py", "a") as rules:
        rules.write("\nCHANGED = True\n")  # the designer edits the rules
    forget_pig()
    assert "core/rules-changed" in run(home, "audit", "p1")[1]


def test_a_game_that_is_one_module_is_fingerprinted_by_its_file(site: Path, tmp_path: Path) -> None:
    (site / "solo.py").write_text("from pig_levels import REPLAY as PIG\nfrom dataclasses import replace\n"
                                  "RULESET = replace(PIG, name='solo', title='solo', fingerprint='')\n")
    install(site, {"solo": "solo:RULESET"}, name="solo", version="1.0")  # pig_levels beside it
    registry.refresh()
    home = tmp_path / "store"
    assert run(home, "new", "--ruleset", "solo", "--seats", "a=ana,b=ben", "--id", "s1")[0] == 0
    header = json.loads((home / "logs" / "s1.jsonl").read_text().splitlines()[0])
    assert header["package"] == "solo 1.0"
    assert header["fingerprint"] == blake2b((site / "solo.py").read_bytes(), digest_size=8).hexdigest()



def test_a_game_without_a_view_has_no_board_and_every_built_in_game_has_one(tmp_path: Path) -> None:
    from projections.workspace import Workspace

    ws = Workspace(tmp_path / "store")
    for name in [n for n in registry.names() if registry.game(n).package == ""]:  # a designer's board is their own
        rules = registry.resolve(name)
        started = ws.new_match(name, dict(rules.ruleset.example_seats) or {"red": "ana", "blue": "ben"})
        view = rules.ruleset.view(rules.params, ws.state_at(started.match_id, 0).state, None)
        assert view.has_board == rules.ruleset.gives("view"), name
