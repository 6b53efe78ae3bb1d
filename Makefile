# Two commands do all the set-up on a fresh Debian machine with Python 3.11:
#   make run   the service on its embedded default (SQLite, a broker that needs no server) with demo data
#   make test  the whole test suite on PostgreSQL and Redis
#   make proof schemathesis against the served API with a token of every role
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/casino_backoffice
TEST_BROKER_URL ?= redis://127.0.0.1:6379/15
PROOF_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/casino_backoffice_proof

.PHONY: soak run test proof lint format schema services browser pdf mutation clean

# The service's own packages (make run), and the tests and checks on top of them (make test).
$(BIN)/.installed: requirements.txt
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) is needed (Debian: apt-get install python3 python3-venv)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(BIN)/.installed-dev: $(BIN)/.installed requirements-dev.txt
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed pdf
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Web: http://$(HOST):$(PORT)/floor/  Admin: http://$(HOST):$(PORT)/admin/  Display: http://$(HOST):$(PORT)/display/main/"
	HOST=$(HOST) PORT=$(PORT) $(BIN)/honcho start --no-prefix -f Procfile

# Browser tests drive Debian's Chromium; install it when it is missing (as root, from Debian's archive).
browser:
	@test -x /usr/bin/chromium || scripts/install_chromium.sh

# PDFs (WeasyPrint) need Debian's Pango and DejaVu fonts; install them when they are missing.
pdf:
	@scripts/install_pdf_libraries.sh

services:
	@scripts/ensure_services.sh

test: $(BIN)/.installed-dev services browser pdf lint
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) $(BIN)/pytest

# schemathesis against the served API (scripts/proof.py): a fresh database with the demo room, gunicorn on a
# free local port, every check and phase, 200 examples per operation, once with a token of every role.
proof: $(BIN)/.installed-dev services pdf
	PROOF_DATABASE_URL=$(PROOF_DATABASE_URL) $(BIN)/python scripts/proof.py

# The long fault campaigns (tests marked `soak`, left out of `make test`): two beats and a restart over a
# whole gaming day, a Celery worker killed 200 times, PostgreSQL backends terminated 200 times. `make test`
# runs each at its short size (three hours, 20 kills, 20 terminations). About 4 minutes (docs/testing.md).
soak: $(BIN)/.installed-dev services
	DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) $(BIN)/pytest -m soak -p no:randomly

# Mutation testing of money.py and the hand evaluator (mutmut, configured in pyproject.toml; not part of
# `make test`): every mutant from a clean mutants/ (docs/testing.md says how long the last run took), then
# the score per module against the equivalent mutants docs/testing.md lists. MUTANTS="casino_backoffice.poker.split.*" runs those mutants
# again on the results already in mutants/ (mutmut names them module.x_function__mutmut_N).
MUTATION_CHILDREN ?= 2
MUTANTS ?=
mutation: $(BIN)/.installed-dev
	$(if $(MUTANTS),,rm -rf mutants)
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/mutmut run --max-children $(MUTATION_CHILDREN) $(MUTANTS)
	$(BIN)/python scripts/mutation_scores.py

# ruff (the linter, with complexity and size rules, and the formatter: `make format` applies it), mypy
# (with the Django and DRF plugins), the layer contracts of pyproject.toml (import-linter: an import
# pointing upward fails, naming the contract; the jackpot products never import one another) and the
# sizes of modules and functions (scripts/check_sizes.py); part of `make test`.
lint: $(BIN)/.installed-dev
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(BIN)/mypy casino_backoffice tables rake jackpots cage audit demo
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python scripts/check_sizes.py

format: $(BIN)/.installed-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Regenerate the committed OpenAPI schema on PostgreSQL, as the tests do (a test fails when it is stale).
schema: $(BIN)/.installed-dev
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python manage.py spectacular --file openapi.yaml --validate --fail-on-warn

clean:
	rm -rf $(VENV) var
