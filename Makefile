# erren — the two commands a newcomer needs are `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
HAND   ?= 1123m456789m555z

.PHONY: run play analyze test system-deps lint typecheck webcheck unit conformance bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall (and rebuild the C kernel) whenever the packaging or the kernel changes.
$(VENV)/.installed: $(BIN)/python pyproject.toml setup.py $(wildcard src/erren/*/_*.c src/erren/*/_*.h src/erren/*/*/_*.c src/erren/*/*/_*.h)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(VENV)/.installed  ## set up, then serve the game and the web client on embedded SQLite
	$(BIN)/erren serve

play: $(VENV)/.installed  ## play guobiao-2p against the computer in the terminal
	$(BIN)/erren play

analyze: $(VENV)/.installed  ## analyse a hand (HAND=... to choose it)
	$(BIN)/erren analyze '$(HAND)'

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

unit: $(VENV)/.installed
	$(BIN)/pytest -n 2 -p no:cacheprovider

conformance: $(VENV)/.installed  ## check erren against the published corpus (conformance/)
	$(BIN)/erren conformance conformance/*.jsonl

bench: $(VENV)/.installed  ## the speed comparisons with the reference libraries
	$(BIN)/python -m benchmarks.bench_analysis
	$(BIN)/python -m benchmarks.bench_scoring
	$(BIN)/python -m benchmarks.bench_simulate
	$(BIN)/python -m benchmarks.bench_win_value
	$(BIN)/python -m benchmarks.bench_rl

clean:
	rm -rf $(VENV) node_modules build src/*.egg-info src/erren/*/*.so src/erren/*/*/*.so
