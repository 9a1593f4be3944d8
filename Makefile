# `make run [PORT=8000]`: install and start the box in desktop mock mode.  `make test`: install and run every test.
PORT ?= 8000
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test chromium bench

$(BIN)/arbitro: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/arbitro
	$(BIN)/arbitro --mock --port $(PORT) --data data

# The browser tests drive Debian's chromium; install it where it is missing and we may.
chromium:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo -n"; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium \
	  || echo "chromium could not be installed: the browser tests will be skipped"; }

test: $(BIN)/arbitro chromium
	$(BIN)/pytest -q

bench: $(BIN)/arbitro
	$(BIN)/python bench/engine.py
