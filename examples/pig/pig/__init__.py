"""Pig, a game for tabletape: the rules are in game.py."""
