"""`tabletape serve` driven as a digital table would: a real server process (uvicorn on a
free port, over a temporary store), tokens issued with the CLI, and real HTTP requests
through the package's own client (and raw ones where the request itself is the mistake).
One server for the whole module keeps it quick."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dashboard.service.client import Client, ServiceError, StaleSeq
from dashboard.service.server import MAX_BODY
from dashboard.service.wire import MAX_BATCH
from events.base import Event
from projections.corpus.simulate import play
from projections.record.live import Appended, SeatView
from projections.workspace import Workspace
from rulesets import registry
from tests.cli_support import run
from tests.service_support import cli_server, issue_token, start, stop

SEATS = {"red": "ana", "blue": "ben"}


@dataclass
class Service:
    url: str
    home: Path
    writer: Client
    reader: Client

    def token(self, *args: str) -> str:
        """Issue a token with the CLI, as the designer does, and return its text."""
        return issue_token(self.home, *args)

    def client(self, *args: str) -> Client:
        return Client(self.url, self.token(*args))


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    home = tmp_path_factory.mktemp("service-store")
    log = home.parent / "server.log"
    url, server = start(cli_server(home), log)
    try:
        probe = Service(url=url, home=home, writer=Client(url), reader=Client(url))
        probe.writer = probe.client("--scope", "write", "--label", "studio")
        probe.reader = probe.client("--scope", "read", "--label", "designer")
        yield probe
    finally:
        stop(server)
    assert "Traceback" not in log.read_text(errors="replace"), log.read_text(errors="replace")


def _raw(service: Service, method: str, path: str, body: bytes | None = None, token: str | None = None) -> tuple[int, Any]:
    """A request as any HTTP client sends it; (status, decoded JSON body)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(service.url + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _early_answer(service: Service, path: str, size: int, token: str) -> tuple[int, Any]:
    """A POST whose Content-Length alone is refused: HTTP lets the server answer before the
    body arrives and close, so the body is sent as far as the server takes it, then the
    answer read (urllib would report the closed pipe instead of the answer)."""
    import contextlib
    import http.client
    import urllib.parse

    where = urllib.parse.urlsplit(service.url)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=10)
    connection.putrequest("POST", path)
    for name, value in (("Content-Type", "application/json"), ("Authorization", f"Bearer {token}"), ("Content-Length", str(size))):
        connection.putheader(name, value)
    connection.endheaders()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # answered early and closed
        connection.send(b" " * size)
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def _drafts(events: list[Event]) -> list[dict[str, Any]]:
    """Logged events as a table would send them: the store stamps seq, at and prev."""
    return [{k: v for k, v in msgspec.to_builtins(e).items() if k not in ("seq", "at", "prev")} for e in events]


def _bot_game(spec: str, seats: dict[str, str], count: int) -> list[dict[str, Any]]:
    rules = registry.resolve(spec)
    return _drafts(play(rules, seats, seed=1, max_events=count + 1)[1:])


def _started(service: Service, match_id: str, spec: str = "mortalgate@2.5", seats: dict[str, str] = SEATS) -> str:
    return service.writer.start(spec, seats, match_id=match_id, title="table 1").match_id


# --- access ---------------------------------------------------------------------------

def test_health_needs_no_token_and_every_other_route_does(service: Service) -> None:
    assert Client(service.url).health().status == "ok"
    status, body = _raw(service, "GET", "/matches")
    assert status == 401 and "no token" in body["error"]
    status, body = _raw(service, "GET", "/matches", token="tt_00000000_" + "0" * 32)
    assert status == 401 and body["error"] == "unknown token"
    status, body = _raw(service, "GET", "/matches", token="letmein")
    assert status == 401 and "not a tabletape token" in body["error"]


def test_a_token_may_come_as_a_query_parameter_only_on_the_event_stream(service: Service) -> None:
    match_id = _started(service, "query-token-1")
    with urllib.request.urlopen(f"{service.url}/matches/{match_id}/stream?token={service.reader.token}", timeout=10) as response:
        assert response.status == 200 and response.readline() == b"event: ready\r\n"
    for path in ("/matches", f"/matches/{match_id}", f"/matches/{match_id}/events", "/rulesets"):
        try:
            urllib.request.urlopen(f"{service.url}{path}?token={service.reader.token}", timeout=10)
        except urllib.error.HTTPError as error:
            body = json.loads(error.read())
            assert error.code == 401 and "Authorization: Bearer" in body["error"] and "\n" not in body["error"], path
        else:
            raise AssertionError(f"{path} accepted ?token=")


def test_read_only_token_reads_but_cannot_write(service: Service) -> None:
    match_id = _started(service, "readonly-1")
    assert service.reader.match(match_id).last_seq == 0
    with pytest.raises(ServiceError) as refused:
        service.reader.append(match_id, [{"type": "DraftRolled", "red": 1, "blue": 2}], expected_seq=0)
    assert refused.value.status == 403 and "read-only" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        service.reader.start("mortalgate", SEATS)
    assert refused.value.status == 403
    assert service.reader.match(match_id).last_seq == 0


def test_match_token_writes_its_match_only(service: Service) -> None:
    mine, other = _started(service, "scoped-1"), _started(service, "scoped-2")
    table = service.client("--scope", "write", "--match", mine, "--label", "table 1")
    assert table.append(mine, [{"type": "DraftRolled", "red": 1, "blue": 2}], expected_seq=0).last_seq == 1
    with pytest.raises(ServiceError) as refused:
        table.append(other, [{"type": "DraftRolled", "red": 1, "blue": 2}], expected_seq=0)
    assert refused.value.status == 403 and "scoped-1" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        table.start("mortalgate", SEATS)
    assert refused.value.status == 403 and "store-wide" in refused.value.message


def test_a_revoked_token_stops_working_at_once(service: Service) -> None:
    text = service.token("--scope", "read", "--label", "lost phone")
    assert Client(service.url, text).rulesets()
    token_id = text.split("_")[1]
    code, out, _ = run(service.home, "token", "revoke", token_id)
    assert code == 0 and token_id in out
    status, body = _raw(service, "GET", "/rulesets", token=text)
    assert status == 401 and "revoked" in body["error"]
    code, out, _ = run(service.home, "token", "list")
    assert f"{token_id}  read on the whole store  [lost phone]  (revoked)" in out
    assert text not in out


def test_seat_token_sees_its_own_hand_and_never_another_seats(service: Service) -> None:
    seats = {"red": "ana", "yellow": "cy"}
    match_id = _started(service, "hands-1", "mercenarium@1.0", seats)
    service.writer.append(match_id, _bot_game("mercenarium@1.0", seats, 12), expected_seq=0)
    red = service.client("--scope", "seat", "--match", match_id, "--seat", "red")
    seen = red.state(match_id, at=12)
    hands = {row.id: row.cards for row in seen.view.rows}
    assert seen.seat == "red" and seen.state is None
    assert len(hands["hand-red"]) == 5 and "?" not in hands["hand-red"]
    assert hands["hand-yellow"] == ("?",) * 5
    with pytest.raises(ServiceError) as refused:
        red.state(match_id, at=12, seat="yellow")
    assert refused.value.status == 403 and "'red'" in refused.value.message
    for path in (f"/matches/{match_id}/events", f"/matches/{match_id}/export", f"/matches/{match_id}/audit"):
        status, _ = _raw(service, "GET", path, token=red.token)
        assert status == 403, path
    everything = service.reader.state(match_id, at=12)
    assert everything.seat is None and everything.state is not None
    assert "?" not in {card for row in everything.view.rows for card in row.cards}


def test_token_cli_refuses_grants_that_mean_nothing(tmp_path: Path) -> None:
    for args, words in [(("--scope", "seat"), "needs --match and --seat"),
                        (("--scope", "read", "--seat", "red"), "only for a seat token"),
                        (("--scope", "write", "--match", "no-such-match"), "no match 'no-such-match'")]:
        code, out, err = run(tmp_path, "token", "issue", *args)
        assert code == 2 and words in err and not out, args
    Workspace(tmp_path).new_match("mortalgate@2.5", SEATS, match_id="m")
    code, out, err = run(tmp_path, "token", "issue", "--scope", "seat", "--match", "m", "--seat", "green")
    assert code == 2 and "no seat 'green'" in err and not out
    code, _, err = run(tmp_path, "token", "revoke", "abcd1234")
    assert code == 2 and "no token 'abcd1234'" in err


# --- rules ----------------------------------------------------------------------------

def test_rulesets_versions_variants_and_each_games_event_schema(service: Service) -> None:
    (service.home / "variants").mkdir(exist_ok=True)
    (service.home / "variants" / "quick.toml").write_text('extends = "mortalgate@2.5"\n[params]\ngrace_to_win = 6\n')
    games = {game["name"]: game for game in service.reader.rulesets()}
    assert [(v["id"], v["extends"]) for v in games["mortalgate"]["variants"]] == [("quick", "2.5")]
    assert {"mortalgate", "mercenarium", "frontier"} <= set(games)
    assert [v["id"] for v in games["mortalgate"]["versions"]] == ["1.5", "2.0", "2.1", "2.5"]
    assert service.reader.rules("mortalgate@2.1")["spec"] == "mortalgate@2.1"
    schema = json.dumps(service.reader.schema("mortalgate"))
    assert "HeroMoved" in schema and "AttackRolled" in schema
    status, body = _raw(service, "GET", "/games/chess/schema", token=service.reader.token)
    assert status == 422 and "unknown ruleset 'chess'" in body["error"]


def test_a_browser_page_on_another_origin_may_call_it(service: Service) -> None:
    request = urllib.request.Request(service.url + "/rulesets", headers={"Origin": "http://prototype.local", "Authorization": f"Bearer {service.reader.token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers["access-control-allow-origin"] == "*"


def test_openapi_schema_documents_the_endpoints(service: Service) -> None:
    with urllib.request.urlopen(service.url + "/schema/openapi.json", timeout=10) as response:
        paths = json.loads(response.read())["paths"]
    for path in ("/matches/{match_id}/events", "/matches/{match_id}/state", "/matches/{match_id}/stream",
                 "/matches/{match_id}/notes", "/games/{game}/schema", "/queries/{name}"):
        assert path in paths, path


def test_the_schema_says_where_each_parameter_of_a_route_comes_from(service: Service) -> None:
    with urllib.request.urlopen(service.url + "/schema/openapi.json", timeout=10) as response:
        paths = json.loads(response.read())["paths"]

    def taken(path: str, method: str) -> list[tuple[str, str, bool]]:
        return [(p["name"], p["in"], p.get("required", False)) for p in paths[path][method].get("parameters", [])]

    assert taken("/matches/{match_id}/stream", "get") == [
        ("match_id", "path", True), ("seat", "query", False), ("after", "query", False), ("last-event-id", "header", False)]
    assert taken("/matches/{match_id}/notes/{note_id}", "delete") == [
        ("match_id", "path", True), ("note_id", "path", True), ("author", "query", True), ("reason", "query", False)]
    assert "requestBody" in paths["/matches/{match_id}/notes/{note_id}"]["patch"]
    assert taken("/matches/{match_id}/notes/{note_id}", "patch") == [("match_id", "path", True), ("note_id", "path", True)]


def test_the_service_starts_with_litestars_deprecations_turned_into_errors(tmp_path: Path) -> None:
    """Litestar 3 stops guessing where a parameter comes from (its name, its type): every
    route and dependency says it, so importing the service, building the app, answering a
    request and writing the schema warn of nothing that the next Litestar would refuse."""
    code = ("import sys\n"
            "from litestar.testing import TestClient\n"
            "from dashboard.service.server import create_app\n"
            "with TestClient(create_app(sys.argv[1])) as client:\n"
            "    assert client.get('/health').status_code == 200\n"
            "    assert client.get('/schema/openapi.json').status_code == 200\n")
    done = subprocess.run([sys.executable, "-W", "error::DeprecationWarning", "-c", code, str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


# --- recording ------------------------------------------------------------------------

def test_appends_answer_with_the_stored_events_and_their_findings(service: Service) -> None:
    match_id = _started(service, "append-1")
    legal = _bot_game("mortalgate@2.5", SEATS, 6)
    one = service.writer.append(match_id, legal[:1], expected_seq=0)
    assert [e.seq for e in one.events] == [1] and one.findings == [] and type(one.events[0]).__name__ == "DraftRolled"
    batch = service.writer.append(match_id, legal[1:], expected_seq=1)
    assert [e.seq for e in batch.events] == [2, 3, 4, 5, 6] and batch.findings == []
    wrong = service.writer.append(match_id, [{"type": "HeroPlaced", "by": "red", "hero": "nobody", "node": [0, 0]}], expected_seq=6)
    assert wrong.last_seq == 7 and wrong.findings and all(f.seq == 7 for f in wrong.findings)
    again = service.reader.events(match_id, after=5)
    assert [e.seq for e in again.events] == [6, 7] and again.findings == wrong.findings


def test_a_single_event_may_be_sent_without_a_batch(service: Service) -> None:
    match_id = _started(service, "single-1")
    body = json.dumps({"expected_seq": 0, "event": {"type": "DraftRolled", "red": 3, "blue": 4}}).encode()
    status, answer = _raw(service, "POST", f"/matches/{match_id}/events", body, service.writer.token)
    assert status == 201 and answer["last_seq"] == 1 and answer["events"][0]["prev"]


def test_a_stale_expected_seq_is_409_with_the_last_seq_and_writes_nothing(service: Service) -> None:
    match_id = _started(service, "stale-1")
    service.writer.append(match_id, [{"type": "DraftRolled", "red": 1, "blue": 2}], expected_seq=0)
    with pytest.raises(StaleSeq) as stale:
        service.writer.append(match_id, [{"type": "DraftRolled", "red": 5, "blue": 6}], expected_seq=0)
    assert stale.value.status == 409 and stale.value.last_seq == 1
    assert service.reader.match(match_id).last_seq == 1


@pytest.mark.parametrize(("body", "status", "field", "words"), [
    (b'{"expected_seq": 0, "event": {"type": "DraftRolled"', 400, "body", "not valid JSON"),
    (b'{"expected_seq": 0, "event": {"type": "CastleBuilt"}}', 422, "type", "unknown event type 'CastleBuilt'"),
    (b'{"expected_seq": 0, "event": {"type": "DraftRolled", "red": "six", "blue": 1}}', 422, "red", "Expected `int`, got `str`"),
    (b'{"expected_seq": "zero", "event": {"type": "DraftRolled", "red": 1, "blue": 1}}', 422, "expected_seq", "Expected `int`"),
    (b'{"event": {"type": "DraftRolled", "red": 1, "blue": 1}}', 422, "expected_seq", "missing required field"),
    (b'{"expected_seq": 0, "evnt": {}}', 422, "evnt", "unknown field"),
    (b'{"expected_seq": 0}', 422, "events", "either `event`"),
    (b'{"expected_seq": 0, "event": {"type": "CardDealt", "seat": "red", "card": "9C"}}', 422, "type", "unknown event type 'CardDealt'"),
])
def test_bad_appends_are_refused_with_one_line_naming_the_field(service: Service, body: bytes, status: int, field: str, words: str) -> None:
    match_id = f"bad-{zlib.crc32(body)}"
    _started(service, match_id)
    got, answer = _raw(service, "POST", f"/matches/{match_id}/events", body, service.writer.token)
    assert (got, answer["field"]) == (status, field) and words in answer["error"]
    assert "\n" not in answer["error"] and "Traceback" not in answer["error"]
    assert service.reader.match(match_id).last_seq == 0


def test_oversized_bodies_and_batches_are_refused(service: Service) -> None:
    match_id = _started(service, "huge-1")
    status, answer = _early_answer(service, f"/matches/{match_id}/events", MAX_BODY + 1, service.writer.token)
    assert status == 413 and answer["error"]
    batch = {"expected_seq": 0, "events": [{"type": "DraftRolled", "red": 1, "blue": 1}] * (MAX_BATCH + 1)}
    status, answer = _raw(service, "POST", f"/matches/{match_id}/events", json.dumps(batch).encode(), service.writer.token)
    assert status == 422 and answer["field"] == "events" and f"<= {MAX_BATCH}" in answer["error"]
    assert service.reader.match(match_id).last_seq == 0


def test_starting_a_match_checks_seats_and_ids(service: Service) -> None:
    with pytest.raises(ServiceError) as refused:
        service.writer.start("mortalgate@2.5", {"red": "ana"})
    assert refused.value.status == 422
    with pytest.raises(ServiceError) as refused:
        service.writer.start("mortalgate@2.5", SEATS, match_id="../etc")
    assert refused.value.status == 422 and "invalid match id" in refused.value.message
    _started(service, "twice-1")
    with pytest.raises(ServiceError) as refused:
        _started(service, "twice-1")
    assert refused.value.status == 409


# --- reading and checking -------------------------------------------------------------

def test_audit_compare_verify_and_export(service: Service) -> None:
    match_id = _started(service, "checked-1")
    service.writer.append(match_id, _bot_game("mortalgate@2.5", SEATS, 30), expected_seq=0)
    own = service.reader.audit(match_id)
    assert own.rules == "mortalgate@2.5" and own.events == 31
    assert service.reader.audit(match_id, against="mortalgate@2.1").rules == "mortalgate@2.1"
    comparison = service.reader.compare(match_id, "mortalgate@2.1", "mortalgate@2.5")
    assert (comparison.a, comparison.b, comparison.events) == ("mortalgate@2.1", "mortalgate@2.5", 31)
    assert service.reader.verify(match_id).ok
    log = service.reader.export(match_id)
    assert log == Workspace(service.home).export(match_id)
    assert service.reader.state(match_id, at=3).seq == 3


def test_the_audit_says_where_the_rules_text_gives_each_rule_it_finds_broken(service: Service) -> None:
    match_id = _started(service, "passages-1")
    twice = [{"type": "DraftRolled", "red": 3, "blue": 4}, {"type": "DraftRolled", "red": 5, "blue": 1}]
    service.writer.append(match_id, twice, expected_seq=0)
    report = service.reader.audit(match_id)
    assert [v.rule for v in report.violations] == ["mortalgate/draft.roll"]
    assert report.passages == {"mortalgate/draft.roll": 'mortalgate.txt, "Draft Phase"'}


def test_another_games_version_and_unknown_matches_are_refused(service: Service) -> None:
    match_id = _started(service, "wronggame-1")
    with pytest.raises(ServiceError) as refused:
        service.reader.audit(match_id, against="frontier@1.0")
    assert refused.value.status == 422 and "is a mortalgate game" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        service.reader.compare(match_id, "mortalgate@2.1", "mercenarium@1.0")
    assert refused.value.status == 422
    with pytest.raises(ServiceError) as refused:
        service.reader.audit("no-such-match")
    assert refused.value.status == 404 and "no-such-match" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        service.reader.state(match_id, at=99)
    assert refused.value.status == 422 and "outside match" in refused.value.message


def test_a_query_parameter_of_the_wrong_type_is_named(service: Service) -> None:
    match_id = _started(service, "params-1")
    status, body = _raw(service, "GET", f"/matches/{match_id}/state?at=last", token=service.reader.token)
    assert status == 422 and body["field"] == "at" and "\n" not in body["error"]
    status, body = _raw(service, "GET", f"/matches/{match_id}/compare?a=mortalgate@2.1", token=service.reader.token)
    assert status == 422 and body["field"] == "b"


def test_notes_add_reply_edit_remove_and_list(service: Service) -> None:
    match_id = _started(service, "notes-1")
    note = service.writer.add_note(match_id, from_seq=0, author="ana", text="slow start", tags=["balance"])
    service.writer.reply(match_id, note.id, author="ben", text="agreed")
    edited = service.writer.edit_note(match_id, note.id, author="ana", text="very slow start")
    assert edited.text == "very slow start" and [r.text for r in edited.replies] == ["agreed"]
    assert [n.id for n in service.reader.notes(match_id)] == [note.id]
    service.writer.remove_note(match_id, note.id, author="ana", reason="done")
    assert service.reader.notes(match_id) == []
    assert service.reader.notes(match_id, include_removed=True)[0].removed
    with pytest.raises(ServiceError) as refused:
        service.writer.add_note(match_id, from_seq=0, author="ana", text="x", tags=["vibes"])
    assert refused.value.status == 422 and "unknown tag 'vibes'" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        service.writer.reply(match_id, "n-missing", author="ana", text="?")
    assert refused.value.status == 404


def test_named_analyses_are_listed_and_run_over_the_store_as_it_is_now(service: Service) -> None:
    assert "violations_by_rule" in {q["name"] for q in service.reader.queries()}
    match_id = _started(service, "analysed-1", "mortalgate@2.1")
    broken = service.writer.append(match_id, [{"type": "HeroPlaced", "by": "red", "hero": "nobody", "node": [0, 0]}], expected_seq=0)
    assert any(f.severity == "error" for f in broken.findings)
    rows = service.reader.query("violations_by_rule", ruleset="mortalgate", severity="error")
    assert {(r["version"], r["rule"]) for r in rows} >= {("2.1", f.rule) for f in broken.findings if f.severity == "error"}
    with pytest.raises(ServiceError) as refused:
        service.reader.query("no_such_analysis")
    assert refused.value.status == 422 and "no_such_analysis" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        service.reader.query("violations_by_rule", colour="red")
    assert refused.value.status == 422 and "'colour'" in refused.value.message


# --- following ------------------------------------------------------------------------

def test_a_follower_receives_events_and_findings_appended_by_another_client(service: Service) -> None:
    match_id = _started(service, "followed-1")
    received: list[Appended | SeatView] = []
    follower = service.reader

    def follow() -> None:
        for batch in follower.follow(match_id, after=0):
            received.append(batch)
            if isinstance(batch, Appended) and batch.last_seq >= 2:
                return

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    service.writer.append(match_id, [{"type": "DraftRolled", "red": 2, "blue": 5}], expected_seq=0)
    with pytest.raises(ServiceError) as refused:
        next(iter(follower.follow("no-such-match")))
    assert refused.value.status == 404
    other = service.client("--scope", "write", "--match", match_id)
    other.append(match_id, [{"type": "HeroPlaced", "by": "red", "hero": "nobody", "node": [0, 0]}], expected_seq=1)
    thread.join(timeout=15)
    assert not thread.is_alive(), "the stream did not deliver both appends"
    events = [e for batch in received if isinstance(batch, Appended) for e in batch.events]
    findings = [f for batch in received if isinstance(batch, Appended) for f in batch.findings]
    assert [e.seq for e in events] == [1, 2]
    assert findings and {f.seq for f in findings} == {2}


def test_a_seat_follower_gets_only_its_seats_view(service: Service) -> None:
    seats = {"red": "ana", "yellow": "cy"}
    match_id = _started(service, "followed-hands-1", "mercenarium@1.0", seats)
    seat = service.client("--scope", "seat", "--match", match_id, "--seat", "yellow")
    received: list[Appended | SeatView] = []

    def follow() -> None:
        for view in seat.follow(match_id, after=0):
            received.append(view)
            return

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    service.writer.append(match_id, _bot_game("mercenarium@1.0", seats, 4), expected_seq=0)
    thread.join(timeout=15)
    [view] = received
    assert isinstance(view, SeatView) and view.seat == "yellow" and view.state is None
    hands = {row.id: row.cards for row in view.view.rows}
    assert set(hands["hand-red"]) <= {"?"} and "?" not in hands["hand-yellow"]
