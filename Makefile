# The two commands of the README: `make run` and `make test`. Everything else is set up here.
# Every install is pinned by constraints.txt, so an upstream release cannot change what a
# clean clone gets (regenerate it with `make constraints` after changing pyproject.toml).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# PIP_CONSTRAINT reaches pip's isolated build of planner too (setuptools, and the wheels some libraries build).
PIP := PIP_CONSTRAINT=$(CURDIR)/constraints.txt $(BIN)/python -m pip --disable-pip-version-check
CONSTRAINTS := constraints.txt
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck typecheck-quietly unit fuzz bench constraints clean

$(BIN)/python:
	@echo "planner: creating the virtualenv in $(VENV)"
	$(PYTHON) -m venv $(VENV)

# The C extensions (setup.py): a change to their source rebuilds them with the install.
C_SOURCES := planner/core/markov/_metzler.c planner/core/markov/_metzler_body.h planner/report/_rows.c

# What running needs: planner, its libraries, the plot extra (sweep --plot) and the fit extra
# (planner fit: lifelines).
$(RUN_STAMP): pyproject.toml setup.py $(C_SOURCES) $(CONSTRAINTS) | $(BIN)/python
	@echo "planner: installing planner and its libraries (first time only, one to two minutes)"
	$(PIP) install --progress-bar on -e '.[plot,fit]'
	@# the compiled kernels are optional (no compiler: NumPy paths); say which were built
	@$(BIN)/python -c "from planner.core.markov.expm_compiled import kernel_enabled as k; from planner.report.row_join import JOINER as j; print('planner: compiled kernels:', 'built' if k() and j else 'NOT built (no C compiler?): the NumPy paths serve, more slowly')"
	touch $@

# What the tests need on top: pytest, Hypothesis, mpmath, ruff, mypy, pytest-xdist...
$(TEST_STAMP): $(RUN_STAMP)
	@echo "planner: installing the test tools (first time only)"
	$(PIP) install --progress-bar on -e '.[dev]'
	touch $@

## Install (runtime only) and open the interactive planner (TUI) on the bundled default scenario.
run: $(RUN_STAMP)
	$(BIN)/planner tui

## Install and run the whole suite: lint, type check, tests (on every core, with pytest-xdist).
test: $(TEST_STAMP)
	@$(MAKE) --no-print-directory lint
	@# The type check (one core, ~12 s) runs beside the tests, whose Pilot waits leave a core
	@# idle now and then. pytest's progress shows as it goes; the type check's verdict is
	@# kept in a file and printed after the tests, so it never lands inside their progress.
	@echo "planner: type check and tests side by side (three to six minutes on 2 cores)"
	@rm -f $(VENV)/mypy-verdict.txt
	@$(MAKE) --no-print-directory -j2 typecheck-quietly unit; status=$$?; \
		cat $(VENV)/mypy-verdict.txt 2>/dev/null; exit $$status

typecheck-quietly: $(TEST_STAMP)
	@out=$$($(BIN)/mypy 2>&1); status=$$?; printf 'mypy: %s\n' "$$out" > $(VENV)/mypy-verdict.txt; exit $$status

lint: $(TEST_STAMP)
	$(BIN)/ruff check planner tests benchmarks scripts
	$(BIN)/ruff format --check planner tests benchmarks scripts
	@# the layers and their contracts (pyproject.toml); --no-cache: never a stale graph
	$(BIN)/lint-imports --no-cache

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

# Python's bytecode cache stays on for the tests even where the shell turns it off
# (PYTHONDONTWRITEBYTECODE): without it each of the four workers compiles planner and
# rewrites the asserts of all 140 test modules afresh on every run, 3 s of CPU each, and
# every subprocess test compiles planner again. The caches are __pycache__ folders beside
# the sources, ignored by git and removed by `make clean`.
# --dist loadgroup: a module marked xdist_group runs whole on one worker, so the references
# its tests cache and share (mpmath chains, Monte Carlo runs) are computed once, not once
# per worker that happens to run one of its tests.
# On a clean clone (no bytecode cache yet) one collection first compiles planner and rewrites
# the tests' asserts once, instead of once in each of the four workers at the same time
# (4 s of CPU each: a first run took 7 s of CPU per worker to start, a second 3 s).
unit: $(TEST_STAMP)
	@[ -d tests/__pycache__ ] || env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q --collect-only -p no:cacheprovider > /dev/null
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -q -n auto --dist loadgroup

## The fuzz suite at length: thousands of mutated scenarios and overrides, 12 seeded TUI
## keystroke runs (`make test` runs a few dozen of each), and the compare table scrolled
## key by key at every size (`make test` scrolls it at three). FUZZ_EXAMPLES=N changes the count.
fuzz: $(TEST_STAMP)
	PLANNER_FUZZ=long PLANNER_FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-2000} $(BIN)/pytest -q -n auto tests/fuzz tests/tui/test_tui_whole_columns.py

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/bench_engine.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_batch.py
	$(BIN)/python benchmarks/bench_cost.py
	$(BIN)/python benchmarks/bench_recommend.py
	$(BIN)/python benchmarks/bench_tui.py --view all
	$(BIN)/python benchmarks/bench_tui_work.py
	$(BIN)/python benchmarks/bench_sensitivity.py
	$(BIN)/python benchmarks/bench_derive.py

BUILD_PINS := setuptools==84.2.1 wheel==0.48.0

## Re-pin every dependency to what the current virtualenv holds (plus the build backend).
constraints: $(TEST_STAMP)
	{ echo '# Pinned by `make constraints`: what a clean clone installs (runtime, test tools, build).'; \
	  $(BIN)/python -m pip freeze --exclude-editable | grep -v '^planner'; \
	  for pin in $(BUILD_PINS); do echo $$pin; done; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find planner tests benchmarks -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -rf build planner/*.egg-info
	find planner -name '*.so' -delete
