# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

# The first Python >= 3.12 found (Django 6 needs it): on PATH, then in pyenv's versions.
CANDIDATES := python3.12 python3.13 python3 \
	$(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3) \
	$(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3) \
	$(wildcard /usr/bin/python3.1[2-9])
BASE_PYTHON := $(firstword $(foreach c,$(CANDIDATES),$(shell $(c) -c 'import sys; print("$(c)") if sys.version_info >= (3, 12) else None' 2>/dev/null)))

.PHONY: run test install lint serve e2e-deps clean

install: $(VENV)/.installed node_modules/.installed
	@$(PY) manage.py compile_translations

$(VENV)/.installed: pyproject.toml
	@if [ ! -x $(PY) ]; then \
	  if [ -z "$(BASE_PYTHON)" ]; then \
	    echo "Python 3.12 or newer is needed (Django 6). Install it (e.g. 'pyenv install 3.12') and run make again."; exit 1; \
	  fi; \
	  echo "Creating $(VENV) with $(BASE_PYTHON)"; $(BASE_PYTHON) -m venv $(VENV); \
	fi
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	@touch $@

node_modules/.installed: package.json
	@command -v npm >/dev/null || { echo "npm is needed to install htmx (apt-get install npm)."; exit 1; }
	npm install --no-audit --no-fund --loglevel=error
	@touch $@

# `make run` serves the club as production does, over plain HTTP (docs/operations.md, "`make run` is the
# club's server too"): Django's debug pages off (DEBUG=1 turns them on), a secret key made once
# in var/, the names HOST is reached by (infra/hosts.py), Secure cookies only with HTTPS=1.
run: export DEBUG ?= 0
run: export HTTPS ?= 0
run: export SECRET_KEY_FILE ?= $(CURDIR)/var/secret_key
run: export ALLOWED_HOSTS ?= $(shell $(or $(BASE_PYTHON),python3) infra/hosts.py $(HOST))
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py import_rulebooks
	$(PY) manage.py create_demo
	@echo "Serving on http://$(HOST):$(PORT)/ with two Celery workers (play, with beat; heavy). Ctrl-C stops all."
	@# The server (infra/serve.py: uvicorn) runs in the foreground so Ctrl-C reaches it (a
	@# shell script's background jobs ignore SIGINT); when it ends, for whatever reason, the workers
	@# are stopped too. A worker that exits by itself is started again after 5 s, as a supervisor
	@# does in production. infra/workers.py: `play` takes bot turns (PLAY_PROCESSES solo workers
	@# under a supervisor of its own, which starts one again when it exits), `heavy` reviews and hints.
	@( trap 'kill $$pid 2>/dev/null; wait $$pid; exit 0' TERM; \
	  while true; do \
	    $(PY) -m infra.workers play --beat --loglevel=WARNING & \
	    pid=$$!; wait $$pid; \
	    echo "The play worker exited (status $$?); starting it again in 5 s."; sleep 5 & wait $$!; \
	  done ) & \
	  play=$$!; \
	  ( trap 'kill $$pid 2>/dev/null; wait $$pid; exit 0' TERM; \
	  while true; do \
	    $(PY) -m infra.workers heavy --loglevel=WARNING & \
	    pid=$$!; wait $$pid; \
	    echo "The heavy worker exited (status $$?); starting it again in 5 s."; sleep 5 & wait $$!; \
	  done ) & \
	  heavy=$$!; trap 'kill $$play $$heavy 2>/dev/null; wait $$play $$heavy' EXIT; \
	  $(PY) -m infra.serve --host $(HOST) --port $(PORT)

test: install
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

clean:
	rm -rf var/test-* staticfiles
