# Two commands set everything up on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: play serve test bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,openspiel,pettingzoo]'
	touch $@

$(VENV)/.peers-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,openspiel,pettingzoo,peers]' || echo "bench: open_spiel could not be installed; peers are skipped"
	touch $@

play: $(VENV)/.installed
	$(BIN)/parlour

serve: $(VENV)/.installed
	$(BIN)/parlour serve

# The suite on two workers, a test file each at a time (its module fixtures, a server or a browser,
# started once): the machine it is held to has two cores, and most tests wait on a server or a page.
test: $(VENV)/.test-installed
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 --dist loadfile

bench: $(VENV)/.peers-installed
	@for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done
	$(BIN)/python -m pytest -m slow

lint: $(VENV)/.test-installed
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build src/*.egg-info
