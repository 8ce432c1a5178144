"""Random input through the public API: only typed errors, and the store never changes."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.errors import TabletapeError
from projections.workspace import Workspace

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
EVENT_TYPES = st.sampled_from(["HeroMoved", "AttackRolled", "DraftRolled", "Retracted", "MatchStarted", "Ruled", "Nope"])
EVENTISH = st.fixed_dictionaries({"type": EVENT_TYPES}, optional={
    "seq": st.integers(-3, 9), "hero": JSON, "path": JSON, "tens": JSON, "ones": JSON, "red": JSON, "blue": JSON,
    "target_seq": st.integers(-2, 9), "rule": JSON, "decision": JSON, "at": JSON,
})


def snapshot(home: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


def fresh(tmp_path_factory) -> tuple[Workspace, str]:  # type: ignore[no-untyped-def]
    ws = Workspace(tmp_path_factory.mktemp("fuzz"))
    match = ws.new_match("mortalgate@2.5", {"red": "a", "blue": "b"}, match_id="m").match_id
    ws.append(match, b'{"type":"DraftRolled","red":3,"blue":1}\n')
    return ws, match


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(data=st.binary(max_size=200) | st.lists(JSON | EVENTISH, max_size=4).map(lambda xs: "\n".join(json.dumps(x) for x in xs).encode()))
def test_append_accepts_or_refuses_with_a_typed_error(tmp_path_factory, data: bytes) -> None:  # type: ignore[no-untyped-def]
    ws, match = fresh(tmp_path_factory)
    before = snapshot(ws.home)
    try:
        ws.append(match, data)
    except TabletapeError as error:
        assert "\n" not in str(error)
        assert snapshot(ws.home) == before
    else:
        assert ws.verify(match).ok


@SETTINGS
@given(data=st.binary(max_size=200) | st.lists(JSON | EVENTISH, max_size=4).map(lambda xs: "\n".join(json.dumps(x) for x in xs).encode()))
def test_import_accepts_or_refuses_with_a_typed_error(tmp_path_factory, data: bytes) -> None:  # type: ignore[no-untyped-def]
    ws, _ = fresh(tmp_path_factory)
    before = snapshot(ws.home)
    try:
        ws.import_log(data)
    except TabletapeError as error:
        assert "\n" not in str(error)
        assert snapshot(ws.home) == before
