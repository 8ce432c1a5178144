"""`tabletape`: the command line. Each command parses, calls the Workspace, and prints.

Every error a user can cause is a `TabletapeError`: printed as one line, exit status 2,
never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click
import msgspec

from dashboard import render
from events.errors import ConflictError, TabletapeError
from projections.workspace import Workspace, to_builtins

pass_ws = click.make_pass_decorator(Workspace)


def _emit(data: Any) -> None:
    click.echo(json.dumps(to_builtins(data), indent=2, ensure_ascii=False, default=str))


def _pairs(text: str, what: str) -> dict[str, str]:
    """`red=ana,blue=ben` -> {'red': 'ana', 'blue': 'ben'}."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise click.BadParameter(f"{part!r}: expected {what}=name, e.g. red=ana,blue=ben")
        out[key.strip()] = value.strip()
    return out


def _option_values(values: tuple[str, ...]) -> dict[str, Any]:
    """`--option mission=assault --option points=300` -> typed dict (JSON values allowed)."""
    out: dict[str, Any] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep:
            raise click.BadParameter(f"{item!r}: expected name=value")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


@click.group()
@click.option("--home", type=click.Path(path_type=Path), envvar="TABLETAPE_HOME", default=None,
              help="Store folder (default $TABLETAPE_HOME or ./data).")
@click.pass_context
def cli(ctx: click.Context, home: Path | None) -> None:
    """Record, replay, audit and analyse tabletop playtests."""
    ctx.obj = Workspace(home)


@cli.command()
@click.option("--ruleset", "spec", required=True, help="game[@version or variant], e.g. mortalgate@2.5")
@click.option("--seats", required=True, help="seat=player pairs, e.g. red=ana,blue=ben")
@click.option("--title", default="")
@click.option("--id", "match_id", default=None, help="Match id (default: generated).")
@click.option("--option", "options", multiple=True, help="Match option name=value (repeatable).")
@pass_ws
def new(ws: Workspace, spec: str, seats: str, title: str, match_id: str | None, options: tuple[str, ...]) -> None:
    """Start a match and print its id."""
    started = ws.new_match(spec, _pairs(seats, "seat"), title=title, match_id=match_id, options=_option_values(options))
    click.echo(started.match_id)


@cli.command()
@click.argument("match_id")
@click.option("--event", "inline", multiple=True, help="One event as JSON (repeatable); else stdin.")
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Read JSON lines from a file.")
@click.option("--expect-seq", type=int, default=None, help="Fail with a conflict unless the log's last seq is this.")
@pass_ws
def append(ws: Workspace, match_id: str, inline: tuple[str, ...], path: Path | None, expect_seq: int | None) -> None:
    """Append events (JSON lines) to a match; all or nothing."""
    if inline:
        data, where = "\n".join(inline).encode(), "--event"
    elif path:
        data, where = path.read_bytes(), str(path)
    else:
        data, where = sys.stdin.buffer.read(), "<stdin>"
    written = ws.append(match_id, data, expected_seq=expect_seq, where=where)
    click.echo(f"appended {len(written)} event(s) to {match_id}; last seq {written[-1].seq if written else ws.store.last(match_id)[0]}")


@cli.command()
@click.argument("match_id")
@click.option("--at", "seq", type=int, default=None, help="Event seq (default: the last).")
@click.option("--against", default=None, help="Replay under another version, e.g. mortalgate@2.1.")
@click.option("--format", "fmt", type=click.Choice(["summary", "json"]), default="summary")
@pass_ws
def replay(ws: Workspace, match_id: str, seq: int | None, against: str | None, fmt: str) -> None:
    """Show the state at an event."""
    last = ws.store.last(match_id)[0]
    step = ws.state_at(match_id, last if seq is None else seq, against=against)
    rules = ws.rules_of(match_id, against)
    if fmt == "json":
        _emit({"seq": step.event.seq, "event": step.event, "state": step.state,
               "progress": rules.ruleset.progress(rules.params, step.state)})
    else:
        click.echo(render.step_summary(match_id, rules, step, last))


@cli.command()
@click.argument("match_id")
@click.option("--against", default=None, help="Audit under another version, e.g. mortalgate@2.1.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def audit(ws: Workspace, match_id: str, against: str | None, fmt: str) -> None:
    """List every violation and check the declared result; exit 1 if anything is wrong."""
    report = ws.audit(match_id, against=against)
    if fmt == "json":
        _emit(report)
    else:
        click.echo(render.audit_text(match_id, report))
    sys.exit(0 if report.clean else 1)


@cli.command()
@click.argument("match_id")
@click.argument("a")
@click.argument("b")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def compare(ws: Workspace, match_id: str, a: str, b: str, fmt: str) -> None:
    """Replay a match under two versions: first disagreement and outcome change."""
    result = ws.compare(match_id, a, b)
    if fmt == "json":
        _emit({**to_builtins(result), "outcome_changes": result.outcome_changes})
    else:
        click.echo(render.comparison_text(match_id, result))


@cli.command()
@click.argument("match_id")
@pass_ws
def verify(ws: Workspace, match_id: str) -> None:
    """Check a match's hash chain; name the first bad line."""
    report = ws.verify(match_id)
    if report.ok:
        click.echo(f"{match_id}: hash chain verifies ({report.lines} lines)")
    else:
        raise TabletapeError(f"{ws.store.log_path(match_id)}: {report.message}")


@cli.command()
@click.argument("game")
@pass_ws
def schema(ws: Workspace, game: str) -> None:
    """Print the JSON Schema of a game's events."""
    click.echo(json.dumps(ws.schema(game), indent=2))


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def rulesets(ws: Workspace, fmt: str) -> None:
    """List games, their versions and this store's variants."""
    games = ws.rulesets()
    if fmt == "json":
        _emit(games)
        return
    for game in games:
        click.echo(f"{game['name']}  ({game['title']}; bare name = {game['newest']})")
        for version in game["versions"]:
            click.echo(f"  {game['name']}@{version['id']:<8} {version['title']}")
        for variant in game["variants"]:
            click.echo(f"  {game['name']}@{variant['id']:<8} variant of {variant['extends']}: {variant['title']}")


@cli.command(name="list")
@pass_ws
def list_matches(ws: Workspace) -> None:
    """List the matches in the store."""
    for match_id in ws.matches():
        header = ws.header(match_id)
        click.echo(f"{match_id}  {header.ruleset}@{header.version}  {header.source}  {header.title}")


@cli.command(name="import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--id", "match_id", default=None, help="Store under this id (default: the log's own).")
@pass_ws
def import_(ws: Workspace, path: Path, match_id: str | None) -> None:
    """Import a whole JSON-lines log; nothing is stored unless every line checks."""
    started = ws.import_log(path.read_bytes(), match_id=match_id, where=str(path))
    click.echo(match_id or started.match_id)


@cli.command()
@click.argument("match_id")
@pass_ws
def export(ws: Workspace, match_id: str) -> None:
    """Print a match's log exactly as stored."""
    sys.stdout.buffer.write(ws.export(match_id))


@cli.group()
def notes() -> None:
    """Annotations on matches: add, reply, edit, remove, list."""


@notes.command(name="add")
@click.argument("match_id")
@click.option("--at", "from_seq", type=int, required=True, help="Event seq the note is on (start of a range).")
@click.option("--to", "to_seq", type=int, default=None, help="Last seq of a range.")
@click.option("--author", required=True)
@click.option("--text", required=True)
@click.option("--tag", "tags", multiple=True, help="balance, confusing rule, bug, highlight, question")
@click.option("--rule", default=None, help="Rule id, e.g. mortalgate/combat.line-of-sight.")
@pass_ws
def notes_add(ws: Workspace, match_id: str, from_seq: int, to_seq: int | None, author: str, text: str, tags: tuple[str, ...], rule: str | None) -> None:
    """Add a note on an event or a range."""
    note = ws.notes.add(match_id, from_seq=from_seq, to_seq=to_seq, author=author, text=text, tags=tags, rule=rule)
    click.echo(note.id)


@notes.command(name="reply")
@click.argument("match_id")
@click.argument("note_id")
@click.option("--author", required=True)
@click.option("--text", required=True)
@pass_ws
def notes_reply(ws: Workspace, match_id: str, note_id: str, author: str, text: str) -> None:
    """Reply to a note."""
    ws.notes.reply(match_id, note_id, author=author, text=text)
    click.echo(f"replied to {note_id}")


@notes.command(name="edit")
@click.argument("match_id")
@click.argument("note_id")
@click.option("--author", required=True)
@click.option("--text", default=None)
@click.option("--tag", "tags", multiple=True)
@click.option("--rule", default=None)
@pass_ws
def notes_edit(ws: Workspace, match_id: str, note_id: str, author: str, text: str | None, tags: tuple[str, ...], rule: str | None) -> None:
    """Edit a note's text, tags or rule."""
    ws.notes.edit(match_id, note_id, author=author, text=text, tags=tags or None, rule=rule)
    click.echo(f"edited {note_id}")


@notes.command(name="remove")
@click.argument("match_id")
@click.argument("note_id")
@click.option("--author", required=True)
@click.option("--reason", default="")
@pass_ws
def notes_remove(ws: Workspace, match_id: str, note_id: str, author: str, reason: str) -> None:
    """Remove a note (it stays in the history)."""
    ws.notes.remove(match_id, note_id, author=author, reason=reason)
    click.echo(f"removed {note_id}")


@notes.command(name="list")
@click.argument("match_id")
@click.option("--all", "include_removed", is_flag=True, help="Include removed notes.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def notes_list(ws: Workspace, match_id: str, include_removed: bool, fmt: str) -> None:
    """List a match's notes."""
    found = ws.notes.list(match_id, include_removed=include_removed)
    if fmt == "json":
        _emit(found)
        return
    for note in found:
        span = f"{note.from_seq}" if note.to_seq == note.from_seq else f"{note.from_seq}-{note.to_seq}"
        tags = f" [{', '.join(note.tags)}]" if note.tags else ""
        rule = f" ({note.rule})" if note.rule else ""
        gone = " (removed)" if note.removed else ""
        click.echo(f"{note.id}  seq {span}  {note.author}: {note.text}{tags}{rule}{gone}")
        for reply in note.replies:
            click.echo(f"    {reply.author}: {reply.text}")


@cli.command()
@click.argument("spec")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def rules(ws: Workspace, spec: str, fmt: str) -> None:
    """A version's params (rules text / assumed), its changelog, and how the text is read."""
    info = ws.describe(spec)
    if fmt == "json":
        _emit(info)
        return
    click.echo(f"{info['spec']}: {info['title']}")
    for change in info["changelog"]:
        click.echo(f"  changed: {change['text']}  ({', '.join(change['rules'])})")
    click.echo("params:")
    for p in info["params"]:
        note = f"  - {p['note']}" if p["note"] else ""
        click.echo(f"  {p['name']:<22} {p['value']!s:<12} [{p['source']}]{note}")
    click.echo("readings of the text:")
    for r in info["readings"]:
        click.echo(f"  {r['rule']} ({r['kind']}): {r['reading']}")
        click.echo(f"      text: {r['passage']}")


@cli.command()
@click.argument("spec")
@pass_ws
def rulebook(ws: Workspace, spec: str) -> None:
    """Recompute a game's printed rulebook tables from its rules; exit 1 if a cell disagrees."""
    report = ws.rulebook(spec)
    click.echo(report.summary())
    for finding in report.findings:
        click.echo(f"  {finding.rule}  {finding.message}")
    sys.exit(1 if report.findings else 0)


@cli.command()
@click.option("--verify", is_flag=True, help="Check every log's whole hash chain, not only the seam.")
@pass_ws
def sync(ws: Workspace, verify: bool) -> None:
    """Bring the warehouse up to date with every log and note (incremental)."""
    from projections.warehouse import Warehouse

    report = Warehouse(ws).sync(verify=verify)
    click.echo(report.summary())
    for match_id, why in report.rebuilt:
        click.echo(f"  rebuilt {match_id}: {why}")
    for match_id, error in report.failed:
        click.echo(f"  unreadable {match_id}: {error}", err=True)


@cli.command()
@click.argument("name", required=False)
@click.option("--param", "params", multiple=True, help="name=value for the query (repeatable).")
@click.option("--sql", default=None, help="Ad-hoc read-only SQL instead of a named query.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table")
@pass_ws
def query(ws: Workspace, name: str | None, params: tuple[str, ...], sql: str | None, fmt: str) -> None:
    """Run a named analysis (no name: list them) or --sql on the warehouse."""
    from projections.queries import named_queries, parse_assignments, run_named, run_sql
    from projections.warehouse import Warehouse

    warehouse = Warehouse(ws)
    if name is None and sql is None:
        for q in named_queries().values():
            defaults = ", ".join(f"{k}: {p.kind} = {'NULL' if p.default is None else repr(p.default)}" for k, p in q.params.items())
            click.echo(f"{q.name:<22} {q.description}" + (f"  [{defaults}]" if defaults else ""))
        return
    given = parse_assignments(params)
    if not warehouse.exists:
        click.echo(Warehouse(ws).sync().summary(), err=True)
    result = run_sql(warehouse, sql) if sql is not None else run_named(warehouse, name or "", given)
    render.table(result.columns, result.rows, fmt)


@cli.command(name="export-parquet")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@pass_ws
def export_parquet(ws: Workspace, directory: Path) -> None:
    """Write events, steps and matches as Parquet partitioned by ruleset and version."""
    from projections.export import export_parquet as write
    from projections.warehouse import Warehouse

    warehouse = Warehouse(ws)
    if not warehouse.exists:
        click.echo(warehouse.sync().summary(), err=True)
    for table, path in write(warehouse, directory).items():
        click.echo(f"{table}: {path}")


def _progress_bar(label: str) -> Any:
    """A click progress bar fed by progress(done, total) callbacks."""
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = click.progressbar(length=total, label=label, file=sys.stderr)
            bar.__enter__()
        bar.update(done - bar.pos)
        if done >= total:
            bar.__exit__(None, None, None)
            click.echo("", err=True)

    return update


@cli.command()
@click.argument("spec")
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--bot", default="heuristic", show_default=True)
@click.option("--workers", type=int, default=None, help="Local worker processes (default: all cores).")
@click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786.")
@click.option("--option", "options", multiple=True, help="Match option name=value, e.g. mission=sabotage (repeatable).")
@pass_ws
def simulate(ws: Workspace, spec: str, games: int, seed: int, bot: str, workers: int | None, scheduler: str | None,
             options: tuple[str, ...]) -> None:
    """Play seeded bot games and land them in the store and the warehouse."""
    from projections.batch import simulate as run

    report = run(ws, spec, games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler,
                 options=_option_values(options), progress=_progress_bar(f"{spec} x{games}"))
    click.echo(report.summary())


@cli.command(name="compare-versions")
@click.argument("a")
@click.argument("b")
@click.option("--games", type=int, default=500, show_default=True, help="Games per version (per round with --until-decided).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--bot", default="heuristic", show_default=True)
@click.option("--workers", type=int, default=None)
@click.option("--scheduler", default=None)
@click.option("--until-decided", is_flag=True, help="Simulate in rounds of --games until the --measure verdicts are decided.")
@click.option("--measure", "measures", multiple=True, default=("seat_balance", "first_player"), show_default=True,
              help="With --until-decided: a measure to decide (repeatable).")
@click.option("--max-games", type=int, default=2000, show_default=True, help="With --until-decided: games per version at most.")
@click.option("--margin", type=float, default=0.05, show_default=True,
              help="With --until-decided: a rate difference within this is 'no change that matters'.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table")
@pass_ws
def compare_versions(ws: Workspace, a: str, b: str, games: int, seed: int, bot: str, workers: int | None,
                     scheduler: str | None, until_decided: bool, measures: tuple[str, ...], max_games: int, margin: float,
                     fmt: str) -> None:
    """Simulate two versions (same seeds, same bots) and give every balance verdict: both
    estimates with 95% intervals, the difference B - A, Holm-corrected p, effect, games needed."""
    from projections.batch import compare_versions as run
    from projections.sequential import until_decided as sequential

    bar = _progress_bar(f"{a} vs {b}")
    if until_decided:
        result = sequential(ws, a, b, measures=list(measures), round_games=games, max_games=max_games, margin=margin,
                            seed=seed, bot=bot, workers=workers, scheduler=scheduler, progress=bar)
    else:
        result = run(ws, a, b, games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler, progress=bar)
    rows = result.rows()
    if fmt != "table":
        render.table(list(rows[0]) if rows else [], [tuple(r.values()) for r in rows], fmt)
        return
    click.echo(result.heading())
    render.table(list(rows[0]) if rows else [], [tuple(r.values()) for r in rows], fmt)
    for look in result.rounds:
        click.echo(f"round {look['round']}: {look['games']} games per version, alpha spent {look['alpha']:.4f}: "
                   + "; ".join(f"{k} {d}" for k, d in look["decisions"].items()))
    for line in result.sentences():
        click.echo(f"- {line}")
    click.echo(result.stored)
    click.echo(result.conclusion())


@cli.command()
@pass_ws
def demo(ws: Workspace) -> None:
    """Fill an empty store with bot-played matches and show what to try next."""
    from projections.demo import ensure_demo

    made = ensure_demo(ws)
    click.echo(f"store {ws.home}: {len(ws.matches())} matches ({len(made)} new bot games)")
    for prefix, command in zip(("try:", *[""] * 2), _worth_trying(ws), strict=False):
        click.echo(f"{prefix:6}tabletape --home {ws.home} {command}")


def _worth_trying(ws: Workspace) -> list[str]:
    """Commands for the first match whose game has an older version to set it against
    (an audit and a comparison under one version alone would show nothing)."""
    for match_id in ws.matches():
        header = ws.header(match_id)
        ruleset = ws.rules_of_header(header).ruleset
        older = next((v for v in ruleset.versions if v != ruleset.newest), None)
        if older is not None:
            old, new = f"{ruleset.name}@{older}", f"{ruleset.name}@{ruleset.newest}"
            return [f"replay {match_id} --at 40", f"audit {match_id} --against {old}", f"compare {match_id} {old} {new}"]
    return [f"replay {match_id} --at 40" for match_id in ws.matches()[:1]]


@cli.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True, help="Port to serve on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. The default serves this machine only; 0.0.0.0 exposes the dashboard to the network.")
@pass_ws
def dashboard(ws: Workspace, port: int, host: str) -> None:
    """Open the dashboard over a ready store: an empty one is filled with demo matches first."""
    from projections.demo import ensure_demo
    from projections.warehouse import Warehouse

    made = ensure_demo(ws)
    if made:
        click.echo(f"filled the empty store {ws.home} with {len(made)} demo matches (bot games and playtests)")
    try:
        report = Warehouse(ws).sync()
        click.echo(report.summary())
        for match_id, problem in report.failed:  # the pages still open; Matches shows the same line
            click.echo(f"warning: the warehouse is not up to date: {match_id}: {problem}", err=True)
    except TabletapeError as error:
        click.echo(f"warning: the warehouse is not up to date: {error}", err=True)
    shown = "localhost" if host in ("127.0.0.1", "localhost", "::1") else host
    exposed = "" if shown == "localhost" else "  (exposed: reachable from other machines)"
    click.echo(f"tabletape dashboard: http://{shown}:{port}/{exposed}  store {ws.home}  (Ctrl+C stops it)")
    app = Path(__file__).with_name("app.py")
    command = [sys.executable, "-c", _STREAMLIT, "run", str(app), "--server.port", str(port), "--server.address", host,
               "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
               "--global.developmentMode", "false", "--client.toolbarMode", "minimal", "--runner.magicEnabled", "false"]
    _serve(command, {**os.environ, "TABLETAPE_HOME": str(ws.home.resolve())})


_STREAMLIT = (
    "import sys\n"
    "from streamlit.runtime.pages_manager import PagesManager\n"
    "PagesManager.uses_pages_directory = False\n"
    "from streamlit.web.cli import main\n"
    "sys.argv[0] = 'streamlit'\n"
    "main()\n"
)
"""`streamlit ...`, told up front that the app routes with st.navigation. Otherwise Streamlit
guesses from the `pages/` folder beside app.py, and the first request after a start that
opens a page's URL directly (a reload of /replay) runs that page without the router."""


def _serve(command: list[str], env: dict[str, str]) -> None:
    """Become the Streamlit server (exec: one process, so stopping it stops the server)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(command[0], command, env)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning typed errors into one line and exit status 2."""
    try:
        cli.main(args=argv, prog_name="tabletape", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as error:
        error.show()
        sys.exit(error.exit_code)
    except ConflictError as error:
        click.echo(f"conflict: {error}", err=True)
        sys.exit(2)
    except TabletapeError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    except (msgspec.DecodeError, OSError) as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
