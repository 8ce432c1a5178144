"""Balance statistics: did a rule change help, answered with intervals, tests and sizes.

`verdicts` holds the pure statistics over the per-match rows of two cohorts (one verdict
per question, each with its interval, its test and the games it would take to decide);
`balance` draws those cohorts of one game out of the warehouse and asks every question.
"""
