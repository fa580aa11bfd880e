# erren — the two commands a newcomer needs are `make run` and `make test` (see README.md);
# `make check` is the quick tier while you work (tests/README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
HAND   ?= 1123m456789m555z

.PHONY: run play analyze check test system-deps lint typecheck webcheck quick unit conformance bench clean

# pytest keeps its rewritten test modules in __pycache__ (some machines set
# PYTHONDONTWRITEBYTECODE, which would make every run rewrite 280 modules again).
export PYTHONDONTWRITEBYTECODE :=
PYTEST = $(BIN)/pytest -p no:cacheprovider

# uv installs the packages (in seconds rather than pip's minute); pip only fetches uv.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv

# Reinstall (and rebuild the C kernel, whose build writes its tables file
# src/erren/analysis/_kernel_tables.bin) whenever the packaging or the kernel changes.
$(VENV)/.installed: $(BIN)/python pyproject.toml setup.py $(wildcard src/erren/*/_*.c src/erren/*/_*.h src/erren/*/*/_*.c src/erren/*/*/_*.h)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
	touch $@

run: $(VENV)/.installed  ## set up, then serve the game and the web client on embedded SQLite
	$(BIN)/erren serve

play: $(VENV)/.installed  ## play guobiao-2p against the computer in the terminal
	$(BIN)/erren play

analyze: $(VENV)/.installed  ## analyse a hand (HAND=... to choose it)
	$(BIN)/erren analyze '$(HAND)'

check: lint quick  ## set up, then ruff and every test that needs no service (the quick tier)

test: system-deps lint typecheck webcheck unit  ## set up, then ruff, mypy, tsc and every test

system-deps:  ## Debian packages the tests need (Chromium, a CJK font, npm, PostgreSQL client)
	./scripts/system-deps.sh

# The web client is plain ES modules with JSDoc types; TypeScript only checks them (no build).
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

webcheck: node_modules/.package-lock.json
	npx --no-install tsc --noEmit --checkJs --strict -p tsconfig.json

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(VENV)/.installed
	$(BIN)/mypy

# The quick tier: no PostgreSQL, Redis, Chromium or server process; a test that reaches for one
# anyway fails with a message naming it (ERREN_TEST_SERVICES=none).
quick: $(VENV)/.installed
	ERREN_TEST_SERVICES=none $(PYTEST) -n 2 -m "not slow and not services"

# Three workers on two cores: the service tests spend much of their time waiting (on server
# processes, leases, real-time timers, Chromium), and a third worker fills those waits; an idle
# worker steals tests queued for a busy one (worksteal), so the slow browser tests at the end of
# the run do not wait in one worker's queue.
unit: $(VENV)/.installed
	$(PYTEST) -n 3 --dist worksteal --durations=15

conformance: $(VENV)/.installed  ## check erren against the published corpus (conformance/)
	$(BIN)/erren conformance conformance/*.jsonl

bench: $(VENV)/.installed  ## the speed comparisons with the reference libraries
	$(BIN)/python -m benchmarks.bench_analysis
	$(BIN)/python -m benchmarks.bench_scoring
	$(BIN)/python -m benchmarks.bench_simulate
	$(BIN)/python -m benchmarks.bench_win_value
	$(BIN)/python -m benchmarks.bench_rl

clean:
	rm -rf $(VENV) node_modules build src/*.egg-info src/erren/*/*.so src/erren/*/*/*.so \
		src/erren/analysis/_kernel_tables.bin
