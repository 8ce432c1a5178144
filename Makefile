# Every target sets up what it needs: a fresh clone runs `make test` or `make run` and nothing else.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev]'
	touch $(STAMP)

.PHONY: setup test lint run bench bench-warehouse bench-simulation bench-dashboard bench-cascade bench-all
setup: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The end-to-end test drives Debian's Chromium (CI runs as root on a fresh machine).
test: lint
	test -x /usr/bin/chromium || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
	$(BIN)/pytest -n 2

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

bench-dashboard: $(STAMP)
	$(BIN)/python -m benchmarks.dashboard

# Follow-on findings per injected table mistake, per game (about two minutes).
bench-cascade: $(STAMP)
	$(BIN)/python -m benchmarks.cascade

bench-all: bench bench-warehouse bench-simulation bench-dashboard bench-cascade
