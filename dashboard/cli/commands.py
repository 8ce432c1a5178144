"""`tabletape`: the command line. Each command parses, calls the Workspace, and prints.

Every error a user can cause is a `TabletapeError`: printed as one line, exit status 2,
never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import click
import msgspec

from dashboard.cli import render
from events.errors import ConflictError, TabletapeError
from events.values import first_problem
from projections.workspace import Workspace, to_builtins
from rulesets.levels import lacks

pass_ws = click.make_pass_decorator(Workspace)
_STARTED = time.perf_counter()
"""When the command began (its imports done): `simulate` says how long the user waited."""


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
        out[key] = _option_value(key, raw)
    return out


def _option_value(key: str, raw: str) -> Any:
    """A JSON value, else the text itself; NaN, Infinity, integers past 64 bits and deep
    nesting are refused (a log must hold only what the warehouse can store)."""
    try:
        value = json.loads(raw, parse_constant=_no_constant)
    except json.JSONDecodeError:
        return raw
    except (ValueError, RecursionError) as error:
        raise click.BadParameter(f"--option {key}={raw[:40]}: {error if isinstance(error, ValueError) else 'nested too deeply'}") from None
    problem = first_problem(value)
    if problem is not None:
        raise click.BadParameter(f"--option {key}: {problem[1]}")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log can hold")


@click.group()
@click.option("--home", type=click.Path(path_type=Path), envvar="TABLETAPE_HOME", default=None,
              help="Store folder (default $TABLETAPE_HOME or ./data).")
@click.pass_context
def cli(ctx: click.Context, home: Path | None) -> None:
    """Record, replay, audit and analyse tabletop playtests."""
    ctx.obj = Workspace(home)
    ctx.call_on_close(lambda: _warn_store(ctx.obj))


# --- what a command met in the store ---------------------------------------------------


def _warn_store(ws: Workspace) -> None:
    """Once per command, whether it ended well or not: every torn tail it met and every
    entry of the store it could not serve (a link, a damaged batch manifest...)."""
    for torn in ws.store.torn_tails:
        if not torn.quarantined_to:
            click.echo(f"warning: {torn.warning(_match_of(torn.path))}", err=True)
    for where, why in ws.store.skipped.items():
        click.echo(f"warning: {where}: {why}", err=True)


def _match_of(path: str) -> str:
    """The match id a journal path belongs to (logs/<id>.jsonl or notes/<id>.jsonl)."""
    return Path(path).name.removesuffix(".jsonl")


@cli.command()
@click.argument("match_ids", nargs=-1)
@click.option("--accept", is_flag=True, help="Anchor a log whose end was cut or edited as it is now.")
@pass_ws
def repair(ws: Workspace, match_ids: tuple[str, ...], accept: bool) -> None:
    """Set aside torn tails (to quarantine/), restore a lost final newline, anchor unanchored
    ends, clear the temp files of killed writers. No ids: every match of the store."""
    failed = 0
    for match_id in match_ids or tuple(ws.matches()):
        try:
            report = ws.store.repair(match_id, accept=accept)
        except TabletapeError as error:
            failed += 1
            click.echo(f"error: {match_id}: {error}", err=True)
            continue
        if report.torn:
            click.echo(f"{match_id}: {report.torn.size} bytes of an interrupted write set aside to {report.torn.quarantined_to}")
        if report.newline_added:
            click.echo(f"{match_id}: the last line's newline restored")
        if report.anchored:
            click.echo(f"{match_id}: end anchored ({report.anchored})")
    for temp in ws.store.remove_dead_temps():
        click.echo(f"removed {temp} (left by a killed writer)")
    sys.exit(1 if failed else 0)


@cli.command()
@click.option("--ruleset", "spec", default=None, help="game[@version or variant], e.g. mortalgate@2.5")
@click.option("--log-only", is_flag=True, help="A game not encoded yet: generic events (actions, dice, scores, turns); "
              "--title names the game across its matches.")
@click.option("--seats", required=True, help="seat=player pairs, e.g. red=ana,blue=ben")
@click.option("--title", default="")
@click.option("--id", "match_id", default=None, help="Match id (default: generated).")
@click.option("--option", "options", multiple=True, help="Match option name=value (repeatable).")
@pass_ws
def new(ws: Workspace, spec: str | None, log_only: bool, seats: str, title: str, match_id: str | None, options: tuple[str, ...]) -> None:
    """Start a match and print its id."""
    if log_only == (spec is not None):
        raise click.UsageError("give either --ruleset GAME or --log-only")
    if log_only and not title.strip():
        raise click.UsageError("--log-only needs --title: it names the game across its matches")
    if log_only:  # imported here: the game is needed by this option alone
        from rulesets.freeform import NAME as spec
    assert spec is not None
    started = ws.new_match(spec, _pairs(seats, "seat"), title=title, match_id=match_id, options=_option_values(options))
    click.echo(started.match_id)


@cli.command()
@click.argument("match_id")
@click.option("--event", "inline", multiple=True, help="One event as JSON (repeatable); else stdin.")
@click.option("--file", "path", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Read JSON lines from a file.")
@click.option("--expect-seq", type=int, default=None, help="Fail with a conflict unless the log's last seq is this.")
@click.option("--table-from", "table", default=None, metavar="MATCH|standard",
              help="Frontier: lay the table an earlier match agreed (or the standard table) as its TerrainPlaced events.")
@pass_ws
def append(ws: Workspace, match_id: str, inline: tuple[str, ...], path: Path | None, expect_seq: int | None, table: str | None) -> None:
    """Append events (JSON lines) to a match; all or nothing."""
    if table is not None:
        from projections.record.tables import table_events, table_from

        laid = table_events(table_from(ws, table), next(iter(ws.header(match_id).seats), None))
        written = ws.append_events(match_id, laid, expected_seq=expect_seq, where="--table-from")
        click.echo(f"appended {len(written)} event(s) to {match_id}; last seq {written[-1].seq}")
        _live_audit(ws, match_id, written)
        return
    if inline:
        data, where = "\n".join(inline).encode(), "--event"
    elif path:
        data, where = path.read_bytes(), str(path)
    else:
        data, where = sys.stdin.buffer.read(), "<stdin>"
    written = ws.append(match_id, data, expected_seq=expect_seq, where=where)
    click.echo(f"appended {len(written)} event(s) to {match_id}; last seq {written[-1].seq if written else ws.store.last(match_id)[0]}")
    _live_audit(ws, match_id, written)


def _live_audit(ws: Workspace, match_id: str, written: list[Any]) -> None:
    """What the events just appended break, one line each."""
    found = [v for v in ws.folded(match_id).report().violations if written and v.seq >= written[0].seq]
    click.echo("\n".join(render.violation_line(v) for v in found) if found else "no rule broken by what was appended")


@cli.command()
@click.argument("match_id")
@click.option("--at", "seq", type=int, default=None, help="Event seq (default: the last).")
@click.option("--against", default=None, help="Replay under another version, e.g. mortalgate@2.1.")
@click.option("--format", "fmt", type=click.Choice(["summary", "json"]), default="summary")
@click.option("--seat", default=None, help="Show only what this seat sees (hidden hands stay hidden).")
@pass_ws
def replay(ws: Workspace, match_id: str, seq: int | None, against: str | None, fmt: str, seat: str | None) -> None:
    """Show the state at an event (the whole table, or one seat's view with --seat)."""
    missing = ws.missing_game(ws.header(match_id))
    if missing is not None:
        click.echo(f"{match_id} {missing}: no state to show; its events as written:")
        for line in ws.store.lines(match_id):
            click.echo(f"  {render.raw_event_line(msgspec.json.decode(line))}")
        sys.exit(1)
    last, seats = ws.store.last(match_id)[0], list(ws.header(match_id).seats)
    if seat is not None and seat not in seats:
        raise TabletapeError(f"--seat {seat!r} is not a seat of {match_id}: {', '.join(seats)}")
    at = last if seq is None else seq
    said: dict[int, str] = {}
    if fmt == "json":
        step = ws.state_at(match_id, at, against=against)
    else:  # words only for what the page prints, read while folding up to `at`
        step, said = ws.position(match_id, at, against=against, recent=0 if seat is not None else render.RECENT)
    rules = ws.rules_of(match_id, against)
    progress = rules.ruleset.progress(rules.params, step.state)
    if fmt == "json" and seat is not None:  # the seat's view, never the state with every hand in it
        _emit({"seq": step.event.seq, "seat": seat, "progress": progress, "view": rules.ruleset.view(rules.params, step.state, seat)})
    elif fmt == "json":
        shows = "everything" if render.hides_anything(rules, step.state, seats) else "open information"
        _emit({"seq": step.event.seq, "event": step.event, "state": step.state, "progress": progress, "shows": shows})
    else:
        click.echo(render.step_summary(match_id, rules, step, last, said, seat=seat, seats=seats))


@cli.command()
@click.argument("match_id", required=False)
@click.option("--against", default=None, help="Audit under another version, e.g. mortalgate@2.1.")
@click.option("--all", "everything", is_flag=True, help="Re-audit every match of the store on every core (with --against: that game's).")
@click.option("--workers", type=int, default=None, help="With --all: local worker processes (default: all cores).")
@click.option("--scheduler", default=None, help="With --all: Dask scheduler address, e.g. tcp://host:8786.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def audit(ws: Workspace, match_id: str | None, against: str | None, everything: bool, workers: int | None,
          scheduler: str | None, fmt: str) -> None:
    """List every violation and check the declared result; exit 1 if anything is wrong."""
    if everything != (match_id is None):
        raise click.UsageError("give either a MATCH_ID or --all")
    if match_id is None:
        _audit_all(ws, against, workers, scheduler, fmt)
        return
    report = ws.audit(match_id, against=against)
    if fmt == "json":
        _emit(report)
    else:
        unchecked = lacks(ws.rules_of(match_id, against).ruleset, "audit")
        if unchecked is not None:
            click.echo(f"note: {unchecked}: no event is checked")
        click.echo(render.audit_text(match_id, report, notes=len(ws.notes.list(match_id))))
    sys.exit(0 if report.clean else 1)


def _audit_all(ws: Workspace, against: str | None, workers: int | None, scheduler: str | None, fmt: str) -> None:
    """`audit --all`: the store-wide re-audit and its summary; exit 1 if any match is not clean."""
    from projections.warehouse.parallel import audit_all

    report = audit_all(ws, against=against, workers=workers, scheduler=scheduler, progress=_progress_bar("audit"))
    if fmt == "json":
        _emit(report)
    else:
        click.echo("\n".join(report.lines()))
    sys.exit(0 if report.clean == report.audited and not report.failed else 1)


@cli.command()
@click.argument("match_id")
@click.argument("a", required=False)
@click.argument("b", required=False)
@click.option("--with", "other", default=None, help="Another match (a branch, its parent): where the two part.")
@click.option("--chances", "rollouts", type=int, default=None,
              help="With --with: each seat's chance to win on each line after the parting, from this many games "
                   "played on by the bots from each turn start (kept in the result cache).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def compare(ws: Workspace, match_id: str, a: str | None, b: str | None, other: str | None, rollouts: int | None,
            fmt: str) -> None:
    """Replay a match under two versions A and B, or against another match (`--with`)."""
    if other is not None:
        if a or b:
            raise TabletapeError("compare: give two versions (MATCH A B) or another match (MATCH --with OTHER), not both")
        parted = ws.parting(match_id, other)
        if rollouts is None:
            _emit(parted) if fmt == "json" else click.echo(parted.line())
            return
        from projections.corpus.chances import apart, chances

        curves = [chances(ws, line, rollouts=rollouts) for line in (parted.a, parted.b)]
        if fmt == "json":
            _emit({"parting": to_builtins(parted), "chances": apart(curves, parted.shared)})
        else:
            click.echo("\n".join([parted.line(), curves[0].played_by, *apart(curves, parted.shared)]))
        return
    if rollouts is not None:
        raise TabletapeError("compare: --chances goes with --with OTHER (two lines of play), not with two versions")
    if not (a and b):
        raise TabletapeError("compare: name two versions (MATCH A B) or another match (MATCH --with OTHER)")
    result = ws.compare(match_id, a, b)
    if fmt == "json":
        _emit({**to_builtins(result), "outcome_changes": result.outcome_changes})
    else:
        click.echo(render.comparison_text(match_id, result))


@cli.command()
@click.argument("match_id")
@click.option("--at", type=int, required=True, help="The parent's last event the branch keeps.")
@click.option("--id", "new_id", default=None, help="The branch's match id (default: a new one).")
@click.option("--title", default="")
@pass_ws
def branch(ws: Workspace, match_id: str, at: int, new_id: str | None, title: str) -> None:
    """Start a what-if branch: a new match with MATCH's events up to --at, played on from there."""
    click.echo(ws.branch(match_id, at, new_id=new_id, title=title).match_id)


@cli.command()
@click.argument("match_id")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def branches(ws: Workspace, match_id: str, fmt: str) -> None:
    """A match's parent (if it is a branch) and its branches."""
    found = ws.family(match_id)
    if fmt == "json":
        _emit(found)
        return
    if found.parent is not None:
        click.echo(f"{match_id} branched from {found.parent} after event {found.at}")
    for child, at in found.children:
        click.echo(f"{child}  from event {at}")
    if found.parent is None and not found.children:
        click.echo(f"{match_id} has no branches")


@cli.command()
@click.argument("match_id")
@click.option("--rollouts", type=int, default=200, show_default=True, help="Games played on from each decision point.")
@click.option("--every", type=click.Choice(["turn", "event"]), default="turn", show_default=True,
              help="Decision points: each turn start, or each event.")
@click.option("--bot", default=None, help="The bot every seat plays on with (default: the game's strongest).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--horizon", default="full", show_default=True,
              help="Rounds each game is played ahead before the position is scored by a model of the game's metrics "
                   "(fitted once on simulated games), or `full`: to the end.")
@click.option("--fit", type=click.Choice(["rules", "match"]), default="rules", show_default=True,
              help="With --horizon, what the scoring model is fitted on: games from the start under these rules (kept "
                   "for every match), or games played to the end from this match's own points (closer to this match).")
@click.option("--precision", type=float, default=None,
              help="Stop playing on from a point once its 95%% interval is within this many points (up to --rollouts).")
@click.option("--workers", type=int, default=None, help="Local worker processes (default: all cores).")
@click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def chances(ws: Workspace, match_id: str, rollouts: int, every: str, bot: str | None, seed: int, horizon: str,
            fit: str, precision: float | None, workers: int | None, scheduler: str | None, fmt: str) -> None:
    """Each seat's chance to win along a match: the game's bots play the rest out from each
    decision point (seeded, so it replays; they see the whole table, hidden cards included),
    with 95% intervals, the turning points and when the game was decided. `--horizon 2
    --precision 5` gives a curve in a fraction of the time, and says how it was made."""
    from projections.corpus.chances import chances as run
    from projections.corpus.chances import replay_link

    found = run(ws, match_id, rollouts=rollouts, every=every, bot=bot, seed=seed, workers=workers, scheduler=scheduler,
                horizon=horizon, fit=fit, precision=precision, progress=_progress_bar(f"{match_id} x{rollouts}"))
    if fmt == "json":
        _emit(found.answer())
        return
    click.echo("\n".join(found.lines(link=lambda seq: replay_link(match_id, seq))))


@cli.command()
@click.argument("match_id")
@pass_ws
def verify(ws: Workspace, match_id: str) -> None:
    """Check a match's hash chain; name the first bad line."""
    report = ws.verify(match_id)
    if report.ok:
        click.echo(f"{match_id}: hash chain verifies ({report.message})")
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
    """List installed games (and any that cannot load), their versions and this store's variants."""
    from rulesets import registry

    games, broken = ws.rulesets(), ws.unloadable()
    if fmt == "json":
        _emit([*games, *({"name": name, "error": error} for name, error in broken.items())])
        return
    order = {name: at for at, name in enumerate(registry.names())}
    for game in sorted([*games, *({"name": name, "error": error} for name, error in broken.items())], key=lambda g: order.get(g["name"], 0)):
        if "error" in game:
            click.echo(f"{game['name']}  {game['error']}")
            continue
        click.echo(f"{game['name']}  ({game['title']}; bare name = {game['newest']}; {game['level']})")
        for version in game["versions"]:
            click.echo(f"  {game['name']}@{version['id']:<8} {version['title']}")
        for variant in game["variants"]:
            click.echo(f"  {game['name']}@{variant['id']:<8} variant of {variant['extends']}: {variant['title']}")


@cli.command(name="list")
@pass_ws
def list_matches(ws: Workspace) -> None:
    """List the matches in the store; one that cannot be read is listed with its error."""
    bad = 0
    for match_id, header in ws.headers():
        if isinstance(header, TabletapeError):
            bad += 1
            click.echo(f"error: {match_id}: {header}", err=True)
            continue
        missing = ws.missing_game(header)
        click.echo(f"{match_id}  {header.ruleset}@{header.version}  {header.source}  {header.title}"
                   + (f"  ({missing})" if missing else ""))
    sys.exit(1 if bad else 0)


@cli.command(name="import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--id", "match_id", default=None, help="Store under this id (default: the log's own); line 0 is renamed and the chain re-hashed.")
@pass_ws
def import_(ws: Workspace, path: Path, match_id: str | None) -> None:
    """Import a whole JSON-lines log; nothing is stored unless every line checks.

    A chained log must verify. To import a log edited by hand, blank every prev
    ("prev":"") first: an unchained log is chained on the way in. A line with a key
    twice or a field its event does not have is refused: keep extra data in notes.

    Prints the match id; on stderr, the log's audit under its rules, and a warning when
    most of its events break them."""
    started = ws.import_log(path.read_bytes(), match_id=match_id, where=str(path))
    click.echo(started.match_id)  # stored: said before the audit, which takes longer
    imported = ws.imported(started)
    click.echo(f"imported {path.name} as {imported.summary()}", err=True)
    if (warning := imported.warning()) is not None:
        click.echo(f"warning: {warning}", err=True)


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
@click.argument("match_id", required=False)
@click.option("--all", "include_removed", is_flag=True, help="Include removed notes.")
@click.option("--rule", default=None, help="Every note about this rule id, by version (no MATCH_ID: every match).")
@click.option("--version", default=None, help="With --rule: only matches of this version.")
@click.option("--branches", is_flag=True, help="With --rule: count what-if branches too.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@pass_ws
def notes_list(ws: Workspace, match_id: str | None, include_removed: bool, rule: str | None, version: str | None,
               branches: bool, fmt: str) -> None:
    """List a match's notes, or every note about a rule across matches (`--rule`)."""
    if rule is not None and match_id is None:
        about = ws.notes_on_rule(rule, version=version, branches=branches)
        _emit(about) if fmt == "json" else click.echo("\n".join(about.lines()))
        return
    if match_id is None:
        raise TabletapeError("notes list: name a match, or a rule with --rule")
    found = ws.notes.list(match_id, include_removed=include_removed)
    if rule is not None:
        found = tuple(note for note in found if note.rule == rule)
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
    if info["rule_ids"]:
        click.echo("rule ids, where the rules text says each, and what breaks it:")
    for r in info["rule_ids"]:
        click.echo(f"  {r['id']}  {r['passage']}: {r['forbids']}")


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
@click.option("--workers", type=int, default=None, help="Local worker processes projecting matches (default: all cores).")
@click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786.")
@pass_ws
def sync(ws: Workspace, verify: bool, workers: int | None, scheduler: str | None) -> None:
    """Bring the warehouse up to date with every log and note (incremental, on every core)."""
    from projections.warehouse.sync import Warehouse, parallel_sync

    report = parallel_sync(Warehouse(ws), workers=workers, scheduler=scheduler, verify=verify, progress=_progress_bar("sync"))
    click.echo(report.summary())
    for match_id, why in report.rebuilt:
        click.echo(f"  rebuilt {match_id}: {why}")
    for match_id in report.removed_ids:
        click.echo(f"  removed {match_id}: its log is gone, so are its rows")
    for match_id, needs in report.missing:
        click.echo(f"  skipped {match_id}: {needs}")
    for match_id, error in report.failed:
        click.echo(f"  unreadable {match_id}: {error}", err=True)
    sys.exit(1 if report.failed else 0)


@cli.command()
@click.argument("name", required=False)
@click.option("--param", "params", multiple=True, help="name=value for the query (repeatable).")
@click.option("--sql", default=None, help="Ad-hoc read-only SQL instead of a named query.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table")
@pass_ws
def query(ws: Workspace, name: str | None, params: tuple[str, ...], sql: str | None, fmt: str) -> None:
    """Run a named analysis (no name: list them) or --sql on the warehouse."""
    from projections.warehouse.queries import named_queries, parse_assignments, run_named, run_sql
    from projections.warehouse.sync import Warehouse

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
    from projections.warehouse.export import export_parquet as write
    from projections.warehouse.sync import Warehouse

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
        if done >= total:  # click ends the bar's line on a terminal; elsewhere it printed the label once
            bar.__exit__(None, None, None)

    return update


@cli.command()
@click.argument("spec")
@click.option("--games", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--bot", default=None, help="A bot of the game (default: its strongest; `tabletape rulesets` lists them).")
@click.option("--workers", type=int, default=None, help="Local worker processes (default: all cores).")
@click.option("--scheduler", default=None, help="Dask scheduler address, e.g. tcp://host:8786.")
@click.option("--option", "options", multiple=True, help="Match option name=value, e.g. mission=sabotage (repeatable).")
@pass_ws
def simulate(ws: Workspace, spec: str, games: int, seed: int, bot: str | None, workers: int | None, scheduler: str | None,
             options: tuple[str, ...]) -> None:
    """Play seeded bot games and land them in the store; a warehouse already built is kept
    current (only the new games are projected), one not built yet is left to the first
    `query` or `dashboard`, which builds it with every game in the store."""
    from projections.corpus.batch import simulate as run

    report = run(ws, spec, games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler,
                 options=_option_values(options), progress=_progress_bar(f"{spec} x{games}"), sync=False)
    click.echo(report.summary())
    spent = [f"{report.seconds:.1f} s playing the games"]
    if ws.has_warehouse():
        from projections.warehouse.sync import Warehouse, parallel_sync

        synced = parallel_sync(Warehouse(ws), workers=workers)
        click.echo(f"warehouse: {synced.summary()}")
        spent.append(f"{synced.seconds:.1f} s syncing the warehouse")
    else:
        click.echo("warehouse: none built yet, so none synced (`tabletape query` and the dashboard build it with these games)")
    click.echo(f"waited {time.perf_counter() - _STARTED:.1f} s in all: {', '.join(spent)}, the rest starting up")


@cli.command(name="compare-versions")
@click.argument("a")
@click.argument("b")
@click.option("--games", type=int, default=500, show_default=True, help="Games per version (per round with --until-decided).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--bot", default=None, help="A bot of the game (default: its strongest; `tabletape rulesets` lists them).")
@click.option("--workers", type=int, default=None)
@click.option("--scheduler", default=None)
@click.option("--until-decided", is_flag=True, help="Simulate in rounds of --games until the --measure verdicts are decided.")
@click.option("--measure", "measures", multiple=True, default=("seat_balance", "first_player"), show_default=True,
              help="With --until-decided: a measure to decide (repeatable).")
@click.option("--max-games", type=int, default=2000, show_default=True, help="With --until-decided: games per version at most.")
@click.option("--margin", type=float, default=0.05, show_default=True,
              help="With --until-decided: a rate difference within this is 'no change that matters'.")
@click.option("--detect", type=float, default=0.05, show_default=True,
              help="The change in a rate (0.05 = 5 points) the games-needed advice is about.")
@click.option("--chances", "chance_games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Games per version whose win chances are played out: adds how early games are decided and how "
                   "often the likely winner changes (bots play on from each turn start; this takes a while).")
@click.option("--chance-rollouts", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help="With --chances: games played on from each turn start.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table")
@pass_ws
def compare_versions(ws: Workspace, a: str, b: str, games: int, seed: int, bot: str | None, workers: int | None,
                     scheduler: str | None, until_decided: bool, measures: tuple[str, ...], max_games: int, margin: float,
                     detect: float, chance_games: int, chance_rollouts: int, fmt: str) -> None:
    """Simulate two versions (same seeds, same bots) and give every balance verdict, first in
    plain sentences, then both estimates with 95% intervals, the difference B - A,
    Holm-corrected p, effect, games needed."""
    from dashboard.cli.rounds import RoundLines, closing
    from projections.corpus.batch import compare_versions as run
    from projections.corpus.sequential import until_decided as sequential
    from projections.stats.verdicts import plain

    live = sys.stderr.isatty()
    if until_decided and chance_games:
        raise click.BadParameter("--chances is for one round of games, not --until-decided", param_hint="--chances")
    if until_decided:
        lines = RoundLines(sys.stderr, list(measures), live=live)
        result = sequential(ws, a, b, measures=list(measures), round_games=games, max_games=max_games, margin=margin,
                            seed=seed, bot=bot, workers=workers, scheduler=scheduler, progress=lines.progress,
                            looked=lines.looked, detect=detect)
    else:
        result = run(ws, a, b, games=games, seed=seed, bot=bot, workers=workers, scheduler=scheduler,
                     progress=_progress_bar(f"{a} vs {b}"), detect=detect, chances=chance_games,
                     chance_rollouts=chance_rollouts)
    rows = result.rows()
    if fmt != "table":
        render.table(list(rows[0]) if rows else [], [tuple(r.values()) for r in rows], fmt)
        return
    for line in plain(result.verdicts, result.a, result.b):  # what a designer reads first, then the statistics
        click.echo(line)
    click.echo()
    click.echo(result.heading())
    render.table(list(rows[0]) if rows else [], [tuple(r.values()) for r in rows], fmt)
    if not (live and sys.stdout.isatty()):  # on one terminal they are on the screen already
        for look in result.rounds:
            click.echo(closing(look))
    for line in result.sentences():
        click.echo(f"- {line}")
    click.echo(result.stored)
    click.echo(result.conclusion())


@cli.command()
@pass_ws
def demo(ws: Workspace) -> None:
    """Fill an empty store with bot-played matches and show what to try next."""
    from projections.corpus.demo import ensure_demo

    made = ensure_demo(ws)
    click.echo(f"store {ws.home}: {len(ws.matches())} matches ({len(made)} new bot games)")
    for prefix, command in zip(("try:", *[""] * 2), _worth_trying(ws), strict=False):
        click.echo(f"{prefix:6}tabletape --home {ws.home} {command}")


def _worth_trying(ws: Workspace) -> list[str]:
    """Commands for the first match whose game has an older version to set it against
    (an audit and a comparison under one version alone would show nothing)."""
    for match_id in ws.matches():
        header = ws.header(match_id)
        if ws.missing_game(header) is not None:
            continue
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
    from projections.corpus.demo import ensure_demo
    from projections.warehouse.sync import Warehouse

    made = ensure_demo(ws)
    if made:
        click.echo(f"filled the empty store {ws.home} with {len(made)} demo matches (bot games and playtests)")
    try:
        report = Warehouse(ws).sync()
        click.echo(report.summary())
        for match_id, problem in report.failed:  # the pages still open; Matches shows the same line
            click.echo(f"warning: the warehouse is not up to date: {match_id}: {problem}", err=True)
        for torn in report.torn:  # said here: the exec below skips the end-of-command warnings
            click.echo(f"warning: {torn}", err=True)
    except TabletapeError as error:
        click.echo(f"warning: the warehouse is not up to date: {error}", err=True)
    shown = "localhost" if host in ("127.0.0.1", "localhost", "::1") else host
    exposed = "" if shown == "localhost" else "  (exposed: reachable from other machines)"
    click.echo(f"tabletape dashboard: http://{shown}:{port}/{exposed}  store {ws.home}  (Ctrl+C stops it)")
    command = streamlit_command(port, host)
    _serve(command, {**os.environ, "TABLETAPE_HOME": str(ws.home.resolve())})


def streamlit_command(port: int, host: str, *extra: str) -> list[str]:
    """The command that serves the dashboard app (`extra` Streamlit options last, so they win)."""
    app = Path(__file__).parents[1] / "app" / "serve.py"
    return [sys.executable, "-c", _STREAMLIT, "run", str(app), "--server.port", str(port), "--server.address", host,
            "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            "--global.developmentMode", "false", "--client.toolbarMode", "minimal", "--runner.magicEnabled", "false",
            # Streamlit collects every generation of garbage after each run, a tap's fragment
            # rerun included: over a store's cached timelines that was most of a tap's wait
            # (BENCHMARKS.md, recording). Python's own collector still runs as it always does.
            "--runner.postScriptGC", "false", *extra]


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


# --- the HTTP service and its tokens ---------------------------------------------------

@cli.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8600, show_default=True, help="Port to serve on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. The default serves this machine only; 0.0.0.0 exposes the API to the network.")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Processes serving the port (default: one per core of this machine).")
@pass_ws
def serve(ws: Workspace, port: int, host: str, workers: int | None) -> None:
    """Serve the store over HTTP (OpenAPI at /schema); every request but /health needs a token."""
    from dashboard.service.server import serve as run

    workers = workers or os.cpu_count() or 1
    click.echo(f"tabletape service: http://{host}:{port}/  OpenAPI: /schema  store {ws.home}  "
               f"{workers} process{'es' if workers > 1 else ''}  (Ctrl+C stops it)")
    run(ws.home, host=host, port=port, workers=workers)


@cli.group()
def token() -> None:
    """Access tokens for the HTTP service: issue, revoke, list."""


@token.command(name="issue")
@click.option("--scope", type=click.Choice(["write", "read", "seat"]), required=True,
              help="write: record (one match with --match, else all); read: read all; seat: one seat's view.")
@click.option("--match", "match_id", default=None, help="The one match a write or seat token is for.")
@click.option("--seat", default=None, help="The seat a seat token sees as.")
@click.option("--label", default="", help="Who holds it, e.g. 'table 3'.")
@pass_ws
def token_issue(ws: Workspace, scope: str, match_id: str | None, seat: str | None, label: str) -> None:
    """Issue a token and print it (only now: the store keeps its hash)."""
    from events.tokens import Tokens
    from projections.record.live import check_seat

    if match_id is not None:  # an unknown match or seat is refused before a token is made for it
        check_seat(ws, match_id, seat)
    text, grant = Tokens(ws.home).issue(scope, match_id=match_id, seat=seat, label=label)
    click.echo(text)
    click.echo(f"token {grant.token_id}: {_grant_text(grant)}", err=True)


@token.command(name="revoke")
@click.argument("token_id")
@pass_ws
def token_revoke(ws: Workspace, token_id: str) -> None:
    """Stop a token working (by the id `token list` shows)."""
    from events.tokens import Tokens

    grant = Tokens(ws.home).revoke(token_id)
    click.echo(f"revoked {grant.token_id}: {_grant_text(grant)}")


@token.command(name="list")
@pass_ws
def token_list(ws: Workspace) -> None:
    """List every token issued (never the secrets)."""
    from events.tokens import Tokens

    for grant in Tokens(ws.home).issued():
        click.echo(f"{grant.token_id}  {_grant_text(grant)}" + ("  (revoked)" if grant.revoked else ""))


def _grant_text(grant: Any) -> str:
    where = f"match {grant.match_id}" if grant.match_id else "the whole store"
    seat = f" as seat {grant.seat}" if grant.seat else ""
    label = f"  [{grant.label}]" if grant.label else ""
    return f"{grant.scope} on {where}{seat}{label}"



# --- a designer's own game: start one, then hold it to the contract ---------------------


@cli.command(name="init-game")
@click.argument("name")
@click.option("--dir", "directory", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write the package into (new or empty; default ./NAME).")
def init_game(name: str, directory: Path | None) -> None:
    """Write a new game's package: a level-2 dice race, a sample log and a test, ready to install."""
    from projections.authoring.scaffold import init_game as write

    where = directory if directory is not None else Path(name)
    written = write(name, where)
    click.echo(f"wrote {name}, a level 2 game (a two-player dice race), in {where}:")
    for path in written:
        click.echo(f"  {path}")
    sample = where / "sample.jsonl"
    click.echo("next:")
    for command in (f"pip install -e {where}    (or: uv pip install -e {where})", "tabletape rulesets",
                    f"tabletape check-game {name} --log {sample}",
                    f"tabletape new --ruleset {name} --seats red=ana,blue=ben --id first",
                    f"tabletape append first --file {sample}",
                    f"tabletape audit first    (names the one mistake planted at line 8: {name}/turn.order)"):
        click.echo(f"  {command}")


@cli.command(name="check-game")
@click.argument("spec")
@click.option("--log", "logs", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A log to fold and audit too: a whole one, or events as `append` reads them (repeatable).")
@pass_ws
def check_game(ws: Workspace, spec: str, logs: tuple[Path, ...]) -> None:
    """Run the contract checks a game's parts call for; say its level and what each missing part adds.

    Exit 0 when every check that ran passed, 1 when one failed."""
    from projections.authoring.contract import check_game as run
    from projections.authoring.contract import read_log

    rules = ws.rules(spec)
    report = run(rules, [read_log(rules, path.read_bytes(), where=str(path)) for path in logs])
    click.echo("\n".join(report.lines()))
    sys.exit(0 if report.ok else 1)


@cli.command()
@click.argument("match_id")
@click.option("--as", "spec", required=True, help="The typed game to re-read it as, e.g. pig@100.")
@click.option("--map", "map_path", required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="TOML: which event type each verb becomes and which values fill which fields.")
@click.option("--id", "new_id", default=None, help="Id of the new match (default: generated).")
@pass_ws
def retype(ws: Workspace, match_id: str, spec: str, map_path: Path, new_id: str | None) -> None:
    """Re-read a log-only match as a typed game, into a new match, and audit it there."""
    started = ws.retype(match_id, spec, map_path, new_id=new_id)
    click.echo(f"{match_id} retyped as {started.ruleset}@{started.version}: {started.match_id} (the original is unchanged)")
    report = ws.audit(started.match_id)
    click.echo(render.audit_text(started.match_id, report, notes=len(ws.notes.list(started.match_id))))
    sys.exit(0 if report.clean else 1)


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
    except RecursionError:
        click.echo("error: the input is nested too deeply to read", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
