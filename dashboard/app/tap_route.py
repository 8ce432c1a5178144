"""The dashboard's tap route: a tap or a press on Record's board, answered with the new board.

A tap through Streamlit waits for a rerun of the page's fragment and its round trip before
the board can move. Here the board component posts the tap (with the token its page
handed it) beside Streamlit, the session's `Recorder` writes it under its lock, and the
answer is the board's data for the new position, which the browser draws at once. The
page itself learns of the write on its next run, from the same recorder.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from dashboard.app.recorder import Recorder, recorder

MAX_BODY = 64 * 1024
"""A tap or a press is a few hundred bytes; anything near this is not one."""


async def tap(request: Request) -> Response:
    """POST {"token", "tap": {source, target, seq}} or {"token", "act": {act, index, seq}},
    and "frame": the map the browser holds. 200: the new board; 4xx: one line saying why."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:  # refused before a byte of it is read
        return PlainTextResponse(f"tap: the body is {declared} bytes, more than the {MAX_BODY} a tap may be", 413)
    body = b""
    async for chunk in request.stream():  # a body sent without its length: read up to the limit only
        body += chunk
        if len(body) > MAX_BODY:
            return PlainTextResponse(f"tap: the body is more than the {MAX_BODY} bytes a tap may be", 413)
    try:
        sent = msgspec.json.decode(body)
    except msgspec.DecodeError as error:
        return PlainTextResponse(f"tap: the body is not JSON ({error})", 400)
    if not isinstance(sent, dict) or not (isinstance(sent.get("tap"), dict) or isinstance(sent.get("act"), dict)):
        return PlainTextResponse('tap: send {"token", "tap": {...}} or {"token", "act": {...}}', 400)
    found = recorder(sent.get("token"))
    if found is None:
        return PlainTextResponse("tap: no recording open in this dashboard has that token (reload the page)", 404)
    answer = await run_in_threadpool(_answer, found, sent)
    return Response(msgspec.json.encode(answer), media_type="application/json")


def _answer(rec: Recorder, sent: dict[str, Any]) -> dict[str, Any]:
    """Do what was sent, then draw the position it leaves (one lock: no other tap in between)."""
    with rec.lock:
        if "tap" in sent:
            rec.tap(sent["tap"])
        else:
            rec.act(sent["act"])
        frame = sent.get("frame")
        return rec.board(known_frame=frame if isinstance(frame, str) else None)
