"""A designer's own game: the contract every game passes, and a new game to start from.

`contract` holds each promise of the Ruleset protocol as one check (setup, seeded bot games
that finish clean, deterministic replay, snapshots equal to the full replay, purity),
run for tabletape's own games by the tests and for a designer's by `tabletape check-game`;
`scaffold` writes a complete small game, installable and passing the contract at once.
"""
