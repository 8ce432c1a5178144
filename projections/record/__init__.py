"""Recording a playtest at the table: forms, taps, dice, live matches."""
