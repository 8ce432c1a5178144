"""A game's board drawn: pure SVG from its BoardView, and the board the pages tap.

`svg` draws any game's board from the ruleset's `BoardView` (three geometries) and the
match timeline strip; `tapboard` shows it as a Streamlit component whose taps come back
as events; `scrub` hands Replay's browser the frames of a match so that stepping and
dragging redraw there; `heatmap` shades the board's spaces by how often things happen there.
"""
