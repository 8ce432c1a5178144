"""The benchmark suite: `make bench` measures and rewrites BENCHMARKS.md.

Speed is checked here, never with timed assertions in tests: every figure is measured in
one run next to a baseline measured in the same run, so it reads as a ratio that holds
across machines, and each figure is written down with the command that produced it.

    corpus.py   bot-played MortalGate logs in a real store, generated once, cached in .bench/
    measure.py  the measurements (timing, percentiles, tracemalloc peaks)
    baseline.py the `eventsourcing` library rebuilding one aggregate (the outside baseline)
    report.py   the table, printed and written to BENCHMARKS.md
    run.py      the command line (`python -m benchmarks.run --help`)

`dashboard.py` (the Replay page's redraw time, `python -m benchmarks.dashboard`) is a
separate report of the dashboard's own and is not part of `make bench`.
"""
