# Herna: two commands do all set-up on a fresh machine.
#   make run   - create .venv, install Herna (and the bots' sandbox), start every server with
#                house bots and the ladder of submitted bots
#   make test  - also install the system packages tests need, then lint, typecheck, test
#   make bench - every benchmark under bench/ with short settings, one summary table
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
ARGS   ?=
PYTEST_ARGS ?=
# Most tests wait on sockets and browsers, so more workers than cores pay off (2 cores: 3).
# Python writes and reuses compiled modules (.pyc in __pycache__/): the tests start `herna` in
# hundreds of subprocesses, and an environment that sets PYTHONDONTWRITEBYTECODE would have
# each of them compile all of Herna again (2 s of CPU each).
unexport PYTHONDONTWRITEBYTECODE
PYTEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n < 2 ? 2 : n + n / 2 )))

.PHONY: run test lint typecheck pytest system-deps run-deps bench clean

$(STAMP): pyproject.toml $(wildcard herna/locale/*/LC_MESSAGES/herna.po)
	@scripts/ensure-python.sh $(PYTHON) $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	$(BIN)/pybabel compile -d herna/locale -D herna
	@touch $(STAMP)

# The ladder plays every bot a person uploads (on /bots or with herna submit) in the sandbox.
run: $(STAMP) run-deps
	$(BIN)/herna serve --ladder $(ARGS)

test: $(STAMP) system-deps lint typecheck pytest

system-deps:
	@scripts/ensure-system-deps.sh

run-deps:
	@scripts/ensure-system-deps.sh --run

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The tests that measure time run alone after the parallel part (exit 5: none selected).
# A test that fails in the parallel part runs once more (the log says so): browser tests
# share two cores with three workers; a test that fails twice fails the run. The log ends
# with the 25 slowest tests: CI must stay under 20 minutes.
pytest: $(STAMP)
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal -m "not serial" --reruns 1 -rR --durations=25 $(PYTEST_ARGS)
	$(BIN)/pytest -p no:xdist -m serial $(PYTEST_ARGS) || [ $$? -eq 5 ]

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	@command -v wrk >/dev/null || scripts/ensure-system-deps.sh wrk
	$(BIN)/python bench/run_all.py $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
