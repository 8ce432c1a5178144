"""The dashboard as served: the pages (`main.py`) with the tap route beside them.

`tabletape dashboard` runs `streamlit run` on this file; Streamlit finds `app` and serves
it, page and route from one server and one process (`dashboard.app.tap_route`).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from starlette.routing import Route

from dashboard.app.recorder import TAP_PATH
from dashboard.app.tap_route import tap

app = st.App(Path(__file__).parent / "main.py", routes=[Route(TAP_PATH, tap, methods=["POST"])])
