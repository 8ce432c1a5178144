"""The live audit of appends through the service: what it says and the fold it keeps are
what a fresh audit of the stored log says, whoever else writes to the match.

The appends go through the route `tabletape serve` answers them with (`served_app`);
every answer is compared with a fold of the stored log from line 0, which never reads
the service's fold or the cache.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from dashboard.service.server import served_app
from events.journal import Journal
from projections.read.audit import audit
from projections.read.foldcache import Folded, kept_fold
from projections.workspace import Workspace
from tests.cli_support import run

MISTAKES = Path(__file__).parent / "mortalgate" / "golden" / "mortalgate-mistakes.jsonl"
START = 100
"""Lines of the golden log stored before the service appends the rest."""


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Workspace, str, list[dict[str, Any]]]:
    """A store holding the start of a log that breaks rules; the rest as drafts to append."""
    ws = Workspace(tmp_path)
    data = MISTAKES.read_bytes().splitlines()
    started = ws.import_log(b"\n".join(data[:START]) + b"\n", match_id="m1")
    drafts = [{k: v for k, v in msgspec.json.decode(line).items() if k not in ("seq", "at", "prev")} for line in data[START:]]
    return ws, started.match_id, drafts


@pytest.fixture
def tails(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times a log's lines are read back from its end (`Journal.tail`)."""
    calls = [0]
    tail = Journal.tail

    def counting(self: Journal, after_seq: int) -> Iterator[bytes]:
        calls[0] += 1
        return tail(self, after_seq)

    monkeypatch.setattr(Journal, "tail", counting)
    yield calls


def _headers(home: Path) -> dict[str, str]:
    code, token, err = run(home, "token", "issue", "--scope", "write", "--label", "studio")
    assert code == 0, err
    return {"Authorization": f"Bearer {token.strip()}"}


def _fresh(ws: Workspace, match_id: str) -> Folded:
    """The stored log folded from line 0, nothing kept read."""
    folded = Folded(ws.rules_of(match_id))
    folded.read(ws.store.lines(match_id), folded.rules.ruleset.codec, match_id)
    return folded


def _append(client: TestClient[Any], headers: dict[str, str], ws: Workspace, match_id: str,
            drafts: list[dict[str, Any]]) -> dict[str, Any]:
    answer = client.post(f"/matches/{match_id}/events", headers=headers,
                         json={"expected_seq": ws.store.last(match_id)[0], "events": drafts})
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def _batches(drafts: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    """One event, then three, and so on, as a table sends them."""
    at, size = 0, 1
    while at < len(drafts):
        yield drafts[at : at + size]
        at, size = at + size, 4 - size


def test_live_findings_and_the_kept_fold_equal_a_fresh_audit_after_another_writer_appends(
        stored: tuple[Workspace, str, list[dict[str, Any]]]) -> None:
    ws, match_id, drafts = stored
    headers = _headers(ws.home)
    said: list[Any] = []
    with TestClient(app=served_app(ws.home)) as client:
        for batch in _batches(drafts[:60]):
            said.append(_append(client, headers, ws, match_id, batch))
        others = b"\n".join(msgspec.json.encode(draft) for draft in drafts[60:65]).decode() + "\n"
        code, _out, err = run(ws.home, "append", match_id, stdin=others)  # another process writes to the match
        assert code == 0, err
        for batch in _batches(drafts[65:]):  # to the end, where the fold can be kept
            said.append(_append(client, headers, ws, match_id, batch))
        read_back = client.get(f"/matches/{match_id}/events", headers=headers, params={"after": START - 1})
        assert read_back.status_code == 200, read_back.text
    fresh = _fresh(ws, match_id)
    standing = fresh.findings.standing
    assert any(answer["findings"] for answer in said)  # the mistakes log breaks rules as it goes: the comparison saw some
    for answer in said:
        seqs = [event["seq"] for event in answer["events"]]
        assert answer["findings"] == [msgspec.to_builtins(v) for seq in seqs for v in standing.get(seq, ())]
    assert read_back.json()["findings"] == [msgspec.to_builtins(v) for s in sorted(standing) if s >= START for v in standing[s]]
    kept = kept_fold(ws.cache, match_id, fresh.rules, ws.store.chunks(match_id))  # the fold the service kept as it stopped
    assert kept is not None
    folded, rest = kept
    assert list(rest) == [] and folded.events == fresh.events
    assert folded.dump() == fresh.dump()
    assert folded.report() == fresh.report() == audit(ws.events(match_id), ws.rules_of(match_id))


def test_an_append_through_the_service_folds_the_lines_it_wrote_without_reading_them_back(
        stored: tuple[Workspace, str, list[dict[str, Any]]], tails: list[int]) -> None:
    ws, match_id, drafts = stored
    headers = _headers(ws.home)
    with TestClient(app=served_app(ws.home)) as client:
        _append(client, headers, ws, match_id, drafts[:1])  # the match taken up: its log folded once
        tails[0] = 0
        for draft in drafts[1:20]:
            _append(client, headers, ws, match_id, [draft])
        _append(client, headers, ws, match_id, drafts[20:23])
        assert tails[0] == 0
        code, _out, err = run(ws.home, "append", match_id, stdin=msgspec.json.encode(drafts[23]).decode() + "\n")
        assert code == 0, err
        answer = _append(client, headers, ws, match_id, drafts[24:25])  # what the other writer wrote is read
        assert tails[0] == 1
    fresh = _fresh(ws, match_id)
    assert answer["findings"] == [msgspec.to_builtins(v) for v in fresh.findings.standing.get(answer["last_seq"], ())]
