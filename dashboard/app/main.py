"""The dashboard's entry file: it only routes (Streamlit's multipage pattern, `st.navigation`).

Run it with `tabletape dashboard` (or `streamlit run dashboard/app/main.py` with
`TABLETAPE_HOME` set). A page appears when its file exists, so pages can be built one at a
time.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboard.app.navigation import PAGES, present
from dashboard.app.state import PAGE_STYLE
from dashboard.heap import settle

FAVICON = Path(__file__).parent / "static" / "favicon.png"
"""Shipped with the package: an emoji or icon-font favicon is fetched from a CDN, and a table's
laptop may be offline."""

st.set_page_config(page_title="tabletape", page_icon=str(FAVICON), layout="wide")
pages = [st.Page(PAGES / name, title=title, icon=icon, default=index == 0) for index, (name, title, icon) in enumerate(present())]
st.html(PAGE_STYLE)  # style alone: Streamlit adds no element, and loads no Markdown
# The pages along the top, not in a sidebar, so the board gets the width of a 1024 px tablet.
st.navigation(pages, position="top").run()
settle()  # after the page ran: what it imported is frozen out of the collector's walk
