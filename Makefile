# The two commands a new user types: `make run` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run play test lint typecheck bench clean setup demo regress warm

setup: $(STAMP)

# Re-install only when the project metadata changes (idempotent, quick otherwise).
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

DATA_DIR ?= data

# The main job: the game server with SQLite, ready to play in the browser against bots.
run: $(STAMP)
	@echo "tute: open http://$(HOST):$(PORT)/ in your browser (Ctrl+C stops the server)"
	$(VENV)/bin/tute serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR)

# The terminal game.
play: $(STAMP)
	$(VENV)/bin/tute play

demo: $(STAMP)
	$(VENV)/bin/tute demo

# On every core (pytest-xdist; the tests share nothing). `make test TEST_ARGS=` runs them in one
# process, `make test TEST_ARGS="-n auto --random-order"` in a shuffled order.
TEST_ARGS ?= -n auto

# The solver's machine code compiled once into numba's cache (about 45 s on a fresh clone, a
# second after): the tests' search bots, hints and analyses then load it instead of each
# worker compiling it at once (that took one test 5 minutes on two busy cores).
warm: $(STAMP)
	@$(PY) -c "import tute.hints as h; h.prepare()"

test: $(STAMP) warm
	@$(PY) -m pytest -q --durations=30 $(TEST_ARGS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "no tests collected"; exit 0; fi; exit $$rc

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy

typecheck: lint

# The reported bot blunders (docs/reports.md) replayed against a bot before a change of it
# lands: exit 1 if it repeats one. `make regress BOT=dificil REGRESSIONS=reports.jsonl`.
BOT ?= medio
REGRESSIONS ?=
regress: $(STAMP)
	$(VENV)/bin/tute regress $(REGRESSIONS) --bot $(BOT)

bench: $(STAMP)
	$(PY) bench/playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
