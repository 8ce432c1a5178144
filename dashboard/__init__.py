"""The people-facing layer, one subpackage per face: `cli`, `service`, `app` and `board`.

Thin by design: no rules and no SQL here, only calls into `projections.workspace` (and the
read models it returns). The command line, the HTTP service and the Streamlit app are
three faces of one API; `board` draws a game's board for the app and the heatmaps.
"""
