"""The dashboard's pages, in the order its bar shows them, and the HTML each one's address is
answered with.

Streamlit's page, opened at a page's own address (`/replay?match=...`, a link a designer
follows or a reload), does not know where its server is: it first asks `/replay/_stcore/`
for it, is refused, waits a tenth of a second and asks `/_stcore/`. Every page of the
dashboard lies one level below the server's root, so its HTML says so before Streamlit's
scripts run (`window.__streamlit.BACKEND_BASE_URL`, the setting Streamlit reads when it is
hosted), and a first visit asks once.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

PAGES = Path(__file__).parent / "pages"
ORDER = (
    ("matches.py", "Matches", ":material/table_rows:"),
    ("replay.py", "Replay", ":material/slow_motion_video:"),
    ("record.py", "Record", ":material/edit_note:"),
    ("compare.py", "Compare", ":material/compare_arrows:"),
    ("explore.py", "Explore", ":material/query_stats:"),
    ("rulebook.py", "Rulebook", ":material/menu_book:"),
)
"""Each page's file, title and icon; its address is the file's name (`/replay`)."""


def present() -> list[tuple[str, str, str]]:
    """The pages whose file exists: a page appears once it is written, so pages can be built
    one at a time."""
    return [entry for entry in ORDER if (PAGES / entry[0]).exists()]

SERVER_HERE = ('<script>window.__streamlit = Object.assign({}, window.__streamlit,'
               ' {BACKEND_BASE_URL: new URL(".", location.href).href});</script>')
"""The server is at the folder of the page's address: `/` for `/replay`."""


def _page_html() -> str:
    index = (Path(st.__file__).parent / "static" / "index.html").read_text(encoding="utf-8")
    return index.replace("<head>", "<head>" + SERVER_HERE, 1)


PAGE_HTML = _page_html()


async def page(request: Request) -> HTMLResponse:
    """A page's address: Streamlit's own page, saying where the server is (never kept by
    the browser, as Streamlit serves it)."""
    return HTMLResponse(PAGE_HTML, headers={"Cache-Control": "no-cache"})


def page_routes() -> list[Route]:
    """The routes answering each page's address, in front of Streamlit's own."""
    return [Route(f"/{Path(name).stem}", page) for name, _, _ in present()]
