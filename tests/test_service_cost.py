"""The service's own work per request: an append reads what it must (the log's end, the
token journal's end) once, and copies nothing to the cache it does not need."""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dashboard.service.server import create_app, served_app
from projections.workspace import Workspace
from tests.cli_support import run

MISTAKES = Path(__file__).parent / "mortalgate" / "golden" / "mortalgate-mistakes.jsonl"


def _match_and_writer(home: Path) -> tuple[str, list[bytes], dict[str, str]]:
    """A MortalGate match of the golden log's first 100 lines, the log's lines, and the
    headers of a write token."""
    lines = MISTAKES.read_bytes().splitlines()
    match_id = Workspace(home).import_log(b"\n".join(lines[:100]) + b"\n", match_id="m1").match_id
    code, token, err = run(home, "token", "issue", "--scope", "write", "--label", "studio")
    assert code == 0, err
    return match_id, lines, {"Authorization": f"Bearer {token.strip()}"}


def test_a_served_append_opens_its_log_once_and_the_token_journal_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, lines, headers = _match_and_writer(tmp_path)
    drafts = [msgspec.json.decode(line) for line in lines[100:130]]
    opened: Counter[str] = Counter()
    real_open = os.open

    def counting(path: Any, *args: Any, **kwargs: Any) -> int:
        name = os.fspath(path)
        opened["cache" if f"{os.sep}cache{os.sep}" in name else os.path.basename(name)] += 1
        return real_open(path, *args, **kwargs)

    with TestClient(app=create_app(tmp_path)) as client:
        for number, draft in enumerate(drafts):
            if number == 10:  # the match folded, the token journal read: what every later append costs
                monkeypatch.setattr(os, "open", counting)
            answer = client.post(f"/matches/{match_id}/events", headers=headers,
                                 json={"expected_seq": 99 + number, "events": [draft]})
            assert answer.status_code == 201, answer.text
        monkeypatch.undo()
    appends = len(drafts) - 10
    assert opened[f"{match_id}.jsonl"] <= appends  # the append; the live fold takes the lines it wrote, never reads them back
    assert opened["tokens.jsonl"] <= appends
    assert opened["cache"] == 0


def test_a_lean_append_reads_the_token_journal_without_opening_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app `tabletape serve` runs answers an append below Litestar, looking its token up
    through the journal's end anchor kept open (a revocation moves it: see
    test_service_workers), so neither the journal nor its anchor is opened per append."""
    match_id, lines, headers = _match_and_writer(tmp_path)
    drafts = [msgspec.json.decode(line) for line in lines[100:130]]
    opened: Counter[str] = Counter()
    real_open = os.open

    def counting(path: Any, *args: Any, **kwargs: Any) -> int:
        opened[os.path.basename(os.fspath(path))] += 1
        return real_open(path, *args, **kwargs)

    with TestClient(app=served_app(tmp_path)) as client:  # type: ignore[arg-type]
        for number, draft in enumerate(drafts):
            if number == 10:
                monkeypatch.setattr(os, "open", counting)
            answer = client.post(f"/matches/{match_id}/events", headers=headers,
                                 json={"expected_seq": 99 + number, "events": [draft]})
            assert answer.status_code == 201, answer.text
        monkeypatch.undo()
    assert opened["tokens.jsonl"] == opened["tokens.jsonl.end"] == 0, opened
    assert opened[f"{match_id}.jsonl"] <= len(drafts) - 10


def test_a_served_append_leaves_the_event_loop_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The append itself runs in a worker thread (it waits for fsync); reading the token and
    the body is shorter than a hop to a thread and back, so the guards run on the loop."""
    match_id, lines, headers = _match_and_writer(tmp_path)
    hops: list[str] = []
    real = asyncio.BaseEventLoop.run_in_executor

    def counting(loop: asyncio.BaseEventLoop, executor: Any, func: Any, *args: Any) -> Any:
        hops.append(repr(func))
        return real(loop, executor, func, *args)

    with TestClient(app=create_app(tmp_path)) as client:
        monkeypatch.setattr(asyncio.BaseEventLoop, "run_in_executor", counting)
        answer = client.post(f"/matches/{match_id}/events", headers=headers,
                             json={"expected_seq": 99, "events": [msgspec.json.decode(lines[100])]})
        monkeypatch.undo()
    assert answer.status_code == 201, answer.text
    assert len(hops) == 1 and "append_events" in hops[0], hops
