# Two commands set everything up on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play test bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

$(VENV)/.peers-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,peers]' || echo "bench: open_spiel could not be installed; peers are skipped"
	touch $@

play: $(VENV)/.installed
	$(BIN)/parlour

test: $(VENV)/.test-installed
	$(BIN)/ruff check src tests bench
	$(BIN)/python -m pytest

bench: $(VENV)/.peers-installed
	@for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done
	$(BIN)/python -m pytest -m slow

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests bench

clean:
	rm -rf $(VENV) build src/*.egg-info
