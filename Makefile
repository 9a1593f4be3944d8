# `make run [PORT=8000]`: install and start the box in desktop mock mode.  `make test`: install and run every test.
# `make check`: the quick part for the inner loop (every test but the browser and slow ones, in parallel).
PORT ?= 8000
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test test-pi check tools bench catalogs lock types
QUICK := -m "not browser and not slow"

# Everything installs from requirements.lock (every package pinned, every file's hash checked), the build
# backend included, so the project itself installs without fetching anything unpinned.
$(BIN)/arbitro: pyproject.toml requirements.lock tests/axe-core.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/pip install --quiet --require-hashes --no-deps --ignore-requires-python -r tests/axe-core.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

run: $(BIN)/arbitro
	$(BIN)/arbitro --mock --port $(PORT) --data data

# The browser tests drive Debian's chromium, the install script's tests run shellcheck and build a Bookworm root
# with mmdebstrap: install them where they are missing and we may.
TOOLS := chromium shellcheck mmdebstrap
tools:
	@missing=$$(for t in $(TOOLS); do command -v $$t >/dev/null || echo $$t; done); [ -z "$$missing" ] || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO="sudo -n"; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing \
	  || echo "could not install $$missing: the tests that need them will be skipped"; }

# The quick part runs on every core (pytest-xdist); the browser and slow tests one at a time, as they start
# servers and browsers of their own and measure load.
test: $(BIN)/arbitro tools types
	$(BIN)/pytest -q $(QUICK) -n auto
	$(BIN)/pytest -q -m "(browser or slow) and not emulated"

# The install in the Pi's own systems: armhf (32-bit Raspberry Pi OS) and arm64 Bookworm roots, run under qemu-user
# through binfmt_misc (installed and mounted here, as root). Tens of minutes each, so not part of `make test`.
PI_TOOLS := mmdebstrap qemu-user-static binfmt-support arch-test
test-pi: $(BIN)/arbitro
	[ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
	dpkg -s $(PI_TOOLS) >/dev/null 2>&1 || { apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(PI_TOOLS); }
	for handler in qemu-arm qemu-aarch64; do [ -e /proc/sys/fs/binfmt_misc/$$handler ] || \
	  update-binfmts --enable $$handler; done
	$(BIN)/pytest -q -s -m emulated

check: $(BIN)/arbitro types
	$(BIN)/pytest -q $(QUICK) -n auto

# The rules contract is type-checked, strictly on the engine and every game's rules (settings in pyproject.toml).
types: $(BIN)/arbitro
	$(BIN)/mypy

# Refresh the lock (after changing a dependency in pyproject.toml, or to take new releases: then run `make test`
# before committing it). One universal resolution for every machine the box runs on (x86-64 for mock mode and CI,
# aarch64 and armv7 for the Pi), with the hashes of every file; it prints what moved.
UV := uv==0.13.9
lock: $(BIN)/arbitro
	$(BIN)/pip install --quiet $(UV)
	cp requirements.lock $(VENV)/requirements.before
	echo 'setuptools>=68' | $(BIN)/uv pip compile pyproject.toml - --extra pi --extra test --universal \
	  --python-version 3.11 --generate-hashes --custom-compile-command "make lock" --upgrade --system-certs --quiet \
	  -o requirements.lock
	$(BIN)/python hardware/lock_changes.py $(VENV)/requirements.before requirements.lock

# After editing a message catalog (.po): compile it into the .mo the box reads (a test fails until then).
catalogs: $(BIN)/arbitro
	$(BIN)/python -m engine.catalogs

# The box's Python is Debian's python3 (hardware/install.sh makes its venv from it): the pure rules ran 15–20 %
# slower under a pyenv build of 3.11 (libpython a shared library) than under Debian's (libpython in the
# executable). The engine's rates (the standard library only) are measured under both where this machine has it.
BOX_PYTHON := $(wildcard /usr/bin/python3)

bench: $(BIN)/arbitro
	$(BIN)/python bench/idle.py
	$(BIN)/python bench/matrix.py
	$(BIN)/python bench/display.py
	$(BIN)/python bench/qr.py
	$(BIN)/python bench/phones.py
	$(BIN)/python bench/record.py
	@if command -v $${CC:-cc} >/dev/null; then $(BIN)/python bench/journal.py && \
	  $(BIN)/python bench/tells.py && $(BIN)/python bench/presses.py; \
	  else echo "bench/journal.py, tells.py and presses.py skipped: they build their sync delay with a C compiler (cc)"; fi
	$(BIN)/python bench/leader1.py
	$(BIN)/python bench/engine.py
	@if [ -n "$(BOX_PYTHON)" ] && $(BOX_PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then \
	  $(BOX_PYTHON) bench/engine.py; fi
	$(BIN)/python bench/streams.py
	$(BIN)/python bench/soak.py
