"""Recording a playtest at the table: what may be written next, and how it is tapped.

`recording` offers only what the ruleset's own `legal` allows and checks what is written;
`taps` groups the legal events by where on the board they are made, `tapplan` reads that
backwards (the taps that record a given event), `dice` reads a chance step as the dice the
table rolled, `tables` lays a Frontier table agreed in an earlier match, and `live` keeps
matches in progress for the HTTP service, each append answered with its audit.
"""
