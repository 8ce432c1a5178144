# Every target sets up what it needs: a fresh clone runs `make test` or `make run` and nothing else.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The two example games (examples/) are installed as a designer installs one, through their
# `tabletape.games` entry points: the tests take both through every command and page.
$(STAMP): Makefile pyproject.toml examples/pig/pyproject.toml examples/gofish/pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e '.[dev]' -e examples/pig -e examples/gofish
	touch $(STAMP)

.PHONY: setup test test-slow test-attacks lint run bench bench-warehouse bench-simulation bench-dashboard bench-service bench-speed bench-record bench-cascade bench-audit-speed bench-startup bench-chances bench-cache bench-all
setup: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The end-to-end test drives Debian's Chromium (CI runs as root on a fresh machine).
test: lint
	test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	$(BIN)/pytest -n 2

# The long fault-injection runs (hundreds of SIGKILLs); `make test` runs a sample of each.
test-slow: $(STAMP)
	$(BIN)/pytest -p no:xdist -m slow -s

# Every attack on the store and the service (part of `make test` too; seconds, loopback only).
test-attacks: $(STAMP)
	$(BIN)/pytest -p no:xdist tests/test_store_attacks.py tests/test_service_attacks.py

# Sets up, fills an empty store with demo matches, prints the URL and serves the dashboard.
run: $(STAMP)
	$(BIN)/tabletape dashboard

# Each writes its own section of BENCHMARKS.md; corpora are cached under .bench/.
bench: $(STAMP)
	$(BIN)/python -m benchmarks.run

bench-warehouse: $(STAMP)
	$(BIN)/python -m benchmarks.warehouse

bench-simulation: $(STAMP)
	$(BIN)/python -m benchmarks.simulation

# Win chances along a human MortalGate playtest, 20 rollouts per turn start, local and Dask (a few minutes).
bench-chances: $(STAMP)
	$(BIN)/python -m benchmarks.chances

bench-dashboard: $(STAMP)
	$(BIN)/python -m benchmarks.dashboard

# 50 clients appending to 10 matches over HTTP for 20 s (about 40 s in all).
bench-service: $(STAMP)
	$(BIN)/python -m benchmarks.service

# Bot games per core and Frontier's replay against the baseline commit 283b883 (same run), sync and re-audit on every core.
bench-speed: $(STAMP)
	$(BIN)/python -m benchmarks.speed

# Every game's golden game recorded by taps in Chromium at two sizes, and Replay's Next button.
bench-record: $(STAMP)
	$(BIN)/python -m benchmarks.record_browser


# Follow-on findings per injected table mistake, and recall over pairs of independent mistakes, per game (about half an hour).
bench-cascade: $(STAMP)
	$(BIN)/python -m benchmarks.cascade

# What the resynchronising audit costs, clean logs and logs with mistakes, against the code before.
bench-audit-speed: $(STAMP)
	$(BIN)/python -m benchmarks.audit_speed

# CPU of --help, list, new, append, an early replay of a long log and a small simulate, against the code before (under a minute).
bench-startup: $(STAMP)
	$(BIN)/python -m benchmarks.startup

# The fold cache: kept folds, audits and Timelines against folding again (BENCHMARKS.md, "The fold cache").
bench-cache: $(STAMP)
	$(BIN)/python -m benchmarks.cache

bench-all: bench bench-warehouse bench-simulation bench-dashboard bench-service bench-speed bench-record bench-cascade bench-audit-speed bench-startup bench-cache
