"""The Streamlit dashboard: `main.py` routes to one file per page in `pages/`.

Run it with `tabletape dashboard`. The pages share only what `state` offers (the store,
cached replays, the match being looked at); `charts` draws a version comparison and a
query's bars, and `table_choice` lays a Frontier table in one tap on the Record page.
"""
