"""Read models over logs: replay, the scrubbing timeline, audit and compare.

Everything here folds a log through a game's pure functions; nothing here knows a game.
"""
