"""Games as data and pure functions: one subpackage per game, one protocol for all.

`rulesets.registry` finds a game by name (`mortalgate`, `mortalgate@2.1`, or a designer
variant); everything above this layer talks to games only through `Ruleset`.
"""
