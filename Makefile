# Everyday commands. `make run` installs and serves; `make test` runs the whole test suite.
PY ?= python3
VENV ?= .venv
SOURCE ?=
PORT ?= 8000
BIN = $(VENV)/bin

.PHONY: install run build test lint bench

$(BIN)/nrrules: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(BIN)/nrrules

install: $(BIN)/nrrules

build: install
	$(BIN)/nrrules build $(if $(SOURCE),--source $(SOURCE))

run: build
	$(BIN)/nrrules serve --port $(PORT)

test: install
	$(BIN)/python -m pytest -q -n 2

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python bench/build.py
	$(BIN)/python bench/search.py
	$(BIN)/python bench/relevance.py
	$(BIN)/python bench/engine_runs.py
	$(BIN)/python bench/http_load.py
	$(BIN)/python bench/offline.py
