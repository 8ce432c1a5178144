"""Driving `tabletape` as a person does, for every test of the command line."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from dashboard.cli.commands import main


def run(home: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """Run `tabletape --home HOME args...`; (exit code, stdout, stderr)."""
    result = CliRunner().invoke(entry, ["--home", str(home), *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.pass_context
def entry(ctx: click.Context) -> None:
    """The real entry point (with its error handling, which `CliRunner` on the click group
    would bypass) behind a pass-through command."""
    main(list(ctx.args))


def lines(*events: dict) -> str:
    """Events as the JSON lines `tabletape append` reads."""
    return "".join(json.dumps(e) + "\n" for e in events)
