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

.PHONY: setup test lint run bench
setup: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -n 2

run: $(STAMP)
	$(BIN)/tabletape demo

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run
