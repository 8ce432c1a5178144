"""The `tabletape` command line."""
