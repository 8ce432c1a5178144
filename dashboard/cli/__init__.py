"""The `tabletape` command line: parse, call the Workspace, print.

`commands` holds every command (the `tabletape` entry point); `render` turns the API's
answers into plain text, and `rounds` draws the progress of `compare-versions
--until-decided` on a terminal. Every error a user can cause prints as one line.
"""
