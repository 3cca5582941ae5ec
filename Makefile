# The two commands: `make run` and `make test`. Everything installs into the project.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
NPM ?= npm
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run test install receipt-fonts test-deps policy-tool web lint test-python test-web e2e e2e-built test-suites bench bench-smoke clean

run: install web
	@mkdir -p var
	@echo "Starting on http://127.0.0.1:$${API_PORT:-8000} (a process that dies is restarted; Ctrl-C stops everything)"
	$(PY) -m operations.stack

test: install test-deps policy-tool web lint test-suites
	@echo "make test: all suites passed"

# checkov, the policy check of deploy/k8s/, in a virtualenv of its own (its pins would move the project's packages);
# the version is pyproject.toml's `policy` extra.
policy-tool: $(VENV)/policy/.installed
$(VENV)/policy/.installed: pyproject.toml $(VENV)/.installed
	test -x $(VENV)/policy/bin/python || $(PYTHON) -m venv $(VENV)/policy
	$(VENV)/policy/bin/pip install --quiet $$($(PY) -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["policy"])')
	touch $@

# What the suites need beyond Python and Node, installed from Debian when missing (as root, or through sudo):
# Chromium for Playwright, Go and golang.org/x/mod for the audit tests' independent verifier
# (tests/integration/audit/tlogcheck checks our Merkle proofs and signed checkpoints with sumdb/tlog and note).
GO_X_MOD := /usr/share/gocode/src/golang.org/x/mod/sumdb/tlog
test-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v go >/dev/null 2>&1 || missing="$$missing golang-go"; \
	[ -d $(GO_X_MOD) ] || missing="$$missing golang-golang-x-mod-dev"; \
	command -v pdftotext >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		echo "make test: installing$$missing from Debian"; \
		$$sudo apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

install: $(VENV)/.installed web/node_modules/.installed receipt-fonts

# The fonts receipts and refund notes (PDF) embed (docs/papers.md): Debian's Nanum Gothic (Korean and Latin) and IPAex
# Gothic (Japanese), installed when missing (as root, or through sudo); RECEIPT_FONT_KO/JA name others.
RECEIPT_FONTS := /usr/share/fonts/truetype/nanum/NanumGothic.ttf /usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf
receipt-fonts:
	@if ! ls $(RECEIPT_FONTS) >/dev/null 2>&1; then \
		sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		echo "make install: installing the receipt fonts (fonts-nanum, fonts-ipaexfont-gothic) from Debian"; \
		$$sudo apt-get update -qq && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-nanum fonts-ipaexfont-gothic >/dev/null; \
	fi

$(VENV)/.installed: pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

web/node_modules/.installed: web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund --loglevel=error
	touch $@

web: web/node_modules/.installed
	cd web && $(NPM) run build --silent

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Two pytest processes (pytest-xdist), a test file to each at a time: most of a test's time is waiting for the
# stores, the stack's processes or a browser, and one process left a core idle.
test-python: $(VENV)/.installed
	$(BIN)/pytest -n 2 --dist loadfile

# The Python suites beside the web's unit tests and then the browser suite: each mostly waits (on the stores, the
# stacks' processes, a browser) and leaves most of the two cores idle, so together they take about as long as the
# Python suites alone. The web's output is kept in var/e2e-run.log and printed once both have finished; the names of
# the Python tests that failed are printed again after it (var/python-run.log), so the end of a CI log names them.
test-suites: $(VENV)/.installed web
	@mkdir -p var
	@{ $(MAKE) --no-print-directory test-web && $(MAKE) --no-print-directory e2e-built; } > var/e2e-run.log 2>&1 & browser=$$!; \
	{ $(MAKE) --no-print-directory test-python; echo $$? > var/python-status; } 2>&1 | tee var/python-run.log; \
	python_status=$$(cat var/python-status); \
	wait $$browser; browser_status=$$?; \
	echo "--- the web's unit tests and browser suite, run beside the Python suites: exit $$browser_status ---"; \
	cat var/e2e-run.log; \
	[ $$python_status = 0 ] || { echo "--- the Python tests that did not pass ---"; grep -E '^(FAILED|ERROR) ' var/python-run.log; }; \
	echo "--- Python suites: exit $$python_status; web unit tests and browser suite: exit $$browser_status ---"; \
	[ $$python_status = 0 ] && [ $$browser_status = 0 ]

# Every benchmark at its smallest size (tests/integration/test_bench_smoke.py; it needs web/dist), in its own Redis
# database (12), not one of the two pytest processes' (15 and 14). Not yet part of `make test`: its minute and a half
# put CI over its half hour on this machine (issue 48).
bench-smoke: $(VENV)/.installed
	TEST_REDIS_URL=$${BENCH_SMOKE_REDIS_URL:-redis://127.0.0.1:6379/12} $(BIN)/pytest -p no:xdist -m bench_smoke \
		tests/integration/test_bench_smoke.py

test-web: web/node_modules/.installed
	cd web && $(NPM) run typecheck --silent && $(NPM) run lint --silent && $(NPM) test --silent

e2e: install web e2e-built

# The browser suite against web/dist as it is (`make e2e` builds it first). When it fails, the stack's logs and then
# the names of the tests that failed are printed, so the end of a CI log says which.
e2e-built:
	cd web && $(NPM) run e2e || { e2e_var="$${E2E_VAR_DIR:-../var/e2e}"; \
		echo "--- end of $$e2e_var/stack.log (the supervisor: which process exited, and how) ---"; \
		tail -n 60 "$$e2e_var/stack.log" 2>/dev/null; \
		for log in "$$e2e_var"/logs/*.log; do echo "--- end of $$log ---"; tail -n 25 "$$log"; done 2>/dev/null; \
		node scripts/e2e-failures.mjs "$$e2e_var/report.json"; exit 1; }

# Not part of `make test`: each figure beside its baseline from the same run (needs wrk: apt-get install -y wrk).
bench: install web
	$(PY) -m bench

clean:
	rm -rf var/e2e web/dist web/test-results web/playwright-report
