"""The dashboard as served: the pages (`main.py`) with the routes of its own beside them.

`tabletape dashboard` runs `streamlit run` on this file; Streamlit finds `app` and serves
it, pages and routes from one server and one process: the tap route
(`dashboard.app.tap_route`) and each page's address (`dashboard.app.navigation`).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from starlette.routing import Route

from dashboard.app.navigation import page_routes
from dashboard.app.recorder import TAP_PATH
from dashboard.app.tap_route import tap

app = st.App(Path(__file__).parent / "main.py", routes=[Route(TAP_PATH, tap, methods=["POST"]), *page_routes()])
