# The two README commands: `make run` and `make test`. Both start from a fresh
# machine with only Python 3.11: they create .venv and install what they need.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
export TAVERN_DATA_DIR ?= $(CURDIR)/data

.PHONY: run test test-fast lint bench reliability faults install clean migrate seed

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# A stamp per extra, remade when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[bench,test]'
	touch $@

$(VENV)/.installed-lint: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[lint]'
	touch $@

install: $(VENV)/.installed

migrate: install
	mkdir -p data
	$(BIN)/alembic upgrade head

seed: migrate
	$(BIN)/tavern seed

run: seed
	$(BIN)/uvicorn tavern.web.app:create_app --factory --host 127.0.0.1 --port 8000 \
	  --ws tavern.web.wsproto:TableSocketProtocol

test: $(VENV)/.installed-test
	bash scripts/system-deps.sh
	$(BIN)/python -m pytest

# The edit loop: engines and pure units, no database, server or browser (< 1 min).
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m "not slow and not browser and not redis and not db" tests/games tests/test_cards.py tests/contests

# Ruff over the code and its tests, then the import contracts (both in
# pyproject.toml: docs/architecture.md "Quality gates"); CI runs it first.
lint: $(VENV)/.installed-lint
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports
	$(BIN)/mypy

bench: $(VENV)/.installed-bench
	@# bench_bots.py plays every house-player line: --quick is its smoke run (sizes: docs/bots.md).
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f $$([ $$f = bench/bench_bots.py ] && echo --quick) || exit 1; done

# The reliability suite (docs/reliability.md): on SQLite, then the database
# scenarios again on a throwaway PostgreSQL. Prints the figures it measures.
reliability: $(VENV)/.installed-test
	bash scripts/system-deps.sh
	$(BIN)/python -m pytest tests/reliability -s -q -p no:cacheprovider
	bash scripts/with-postgres.sh $(BIN)/python -m pytest tests/reliability -m db -s -q -p no:cacheprovider

# The fault suite (issue 38, docs/operations.md "Faults"): Redis killed and
# emptied, a worker stopped, PostgreSQL restarted, a full SQLite disk (root,
# for the tmpfs), each under bots playing; ~9 minutes, so not in `make test`.
faults: $(VENV)/.installed-test
	bash scripts/system-deps.sh
	$(BIN)/python bench/bench_faults.py

clean:
	rm -rf $(VENV) data/*.db data/*.db-*
