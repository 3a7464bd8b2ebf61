# The two commands of the README: `make run` and `make test`. Everything else is set up here.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean

# Create the virtualenv and install planner with its test tools (re-run when pyproject changes).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## Install and open the interactive planner (TUI) on the bundled default scenario.
run: $(STAMP)
	$(BIN)/planner tui

## Install and run the whole suite: lint, type check, tests.
test: $(STAMP) lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check planner tests benchmarks
	$(BIN)/ruff format --check planner tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_batch.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
