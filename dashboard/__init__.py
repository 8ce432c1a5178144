"""The people-facing layer: the `tabletape` command line and the Streamlit dashboard.

Thin by design: no rules and no SQL here, only calls into `projections.workspace`.
"""
