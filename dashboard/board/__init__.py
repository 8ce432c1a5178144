"""A game's board drawn as SVG, and the tappable board on the Record page."""
