# Matchismo Live: `make run` and `make test` install what is missing, then build and run or test.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := run

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SERVER_PACKAGES := libwebsockets-dev libssl-dev libpq-dev libsqlite3-dev pkg-config openssl
# e2fsprogs (mkfs.ext4, chattr) and util-linux (mount, losetup, fsfreeze): the journal's fault tests.
# haproxy: the cluster's front door (scripts/cluster.sh, make cluster, the cluster's tests).
# postgresql-15-auto-failover, pg-auto-failover-cli: a database that fails over (make cluster HA=1).
HA_PACKAGES := postgresql-15-auto-failover pg-auto-failover-cli
# prometheus: the cluster's metrics and alerts (promtool tests the alerts).
# chromium-headless-shell: the browser the tests drive (chromium-driver brings chromium itself).
TEST_PACKAGES := chromium chromium-driver chromium-headless-shell postgresql e2fsprogs util-linux haproxy prometheus $(HA_PACKAGES)
CLUSTER_PACKAGES := postgresql haproxy prometheus $(if $(filter 1,$(HA)),$(HA_PACKAGES))
NODES ?= 3
VENV := .venv
PYTHON := $(VENV)/bin/python
PORT ?= 8080
HOST ?= 127.0.0.1
ARGS ?=

.PHONY: run test build release bench soak system-deps test-deps swift-test js-test e2e-test e2e-sizes format clean
.PHONY: cluster alerts-test
.PHONY: fuzz fuzz-smoke e2e-unit-and-fuzz build-and-test-deps

## Build an optimized server and serve the web client on http://$(HOST):$(PORT)/
run: system-deps release
	.build/release/matchismo --host $(HOST) --port $(PORT) --web-root web-client $(ARGS)

## A cluster on this machine: PostgreSQL (a fresh one of its own unless DATABASE=postgres://...
## names one; with HA=1 a primary, a synchronous standby and pg_auto_failover's monitor), NODES
## nodes (default 3) and HAProxy in front of them on http://127.0.0.1:$(PORT)/.
## Ctrl-C stops everything.
cluster: system-deps release
	@./scripts/apt-install-missing.sh $(CLUSTER_PACKAGES)
	@dir=$$(mktemp -d "$${TMPDIR:-/tmp}/matchismo-cluster.XXXXXX"); \
	  trap './scripts/cluster.sh down --dir "'"$$dir"'"; exit 0' INT TERM; \
	  ./scripts/cluster.sh up --dir "$$dir" --nodes $(NODES) --port $(PORT) \
	    $${DATABASE:+--database "$$DATABASE"} $(if $(filter 1,$(HA)),--ha) -- $(ARGS) || exit 1; \
	  echo "Open http://127.0.0.1:$(PORT)/ (Ctrl-C stops the cluster)"; \
	  while sleep 3600; do :; done

## Every test: Swift, web-client JS, end-to-end and browser, and a short run of each fuzz target.
# The build is done by build-and-test-deps (beside the installation): the rest runs in a make of
# its own that is told so, rather than run `swift build` again (8 s to find nothing to do).
test: e2e-sizes build-and-test-deps
	@$(MAKE) --no-print-directory BUILT=1 e2e-unit-and-fuzz

# No file of the end-to-end tests passes 400 lines: a longer one is split by feature.
e2e-sizes:
	./scripts/check-e2e-sizes.sh 400

# Every libFuzzer target: one Fuzz/NAME.swift each (see scripts/fuzz.sh).
FUZZ_TARGETS := $(basename $(notdir $(wildcard Fuzz/*.swift)))
FUZZ_RUNS ?= 10000000

## Runs each fuzz target for FUZZ_RUNS inputs and prints its result.
fuzz:
	@for target in $(FUZZ_TARGETS); do ./scripts/fuzz.sh $$target $(FUZZ_RUNS) || exit 1; done

# A bounded run of each fuzz target (100,000 inputs or 10 s, its checked-in corpus first): a
# crash fails the build. Built without optimisation (FUZZ_BUILD=quick): 42 s for both targets
# where the optimised build `make fuzz` uses took 111 s, beside the e2e pass on the same cores
# (it now runs beside the load tests, at the idle CPU priority);
# its inputs run slower (the lobby target's 330 a second against 1,860), but within the bound.
# The targets build and run at the same time (their modules are compiled apart), each one's
# output kept and shown in turn.
FUZZ_SMOKE = logs=$$(mktemp -d); for target in $(FUZZ_TARGETS); do \
  ( FUZZ_BUILD=quick ./scripts/fuzz.sh $$target 100000 -max_total_time=10 ) >"$$logs/$$target" 2>&1 & \
  done; failed=0; for target in $(FUZZ_TARGETS); do wait -n || failed=1; done; \
  cat "$$logs"/*; rm -rf "$$logs"; [ $$failed = 0 ]
fuzz-smoke:
	@$(FUZZ_SMOKE)

release: system-deps
	swift build -c release --product matchismo

## The standard load scenarios (matchismo-load against fresh release servers), as one table: each
## scenario as the server runs by default (journal on, SQLite in a fresh --data-dir, its WAL and
## database sizes in the row) and with --no-journal. JOURNAL=on|off|full|postgres picks one
## (postgres: a throwaway local cluster); SCENARIOS="a b" picks scenarios.
bench: system-deps
	./scripts/bench.sh $(SCENARIOS)

## A long open-loop run (250 × 4 at 2,000 moves/s) with the journal on, for SOAK_SECONDS (default
## 3600), sampling the server's RSS and the journal's WAL and database sizes every minute: RSS
## growth after the first minute, p99.9 of the whole window, the largest WAL, the database's
## growth per hour. JOURNAL=off|full|postgres (or "on off") as for bench.
soak: system-deps
	./scripts/soak.sh

# The tests' build leaves out DWARF, which only a debugger reads (crash backtraces still name
# functions): no debug info to emit, wrap and link. The C sources of the packages are compiled
# without debug information too (`-Xcc -g0`). A plain `swift build` after it (other flags)
# builds again.
SWIFT_FLAGS := -Xswiftc -gnone -Xcc -g0
SWIFT_TEST = swift test --skip-build $(SWIFT_FLAGS)
build: system-deps
ifneq ($(BUILT),1)
	swift build --build-tests $(SWIFT_FLAGS) 2>&1 | tee .build-output.log
	@if grep -q "warning:" .build-output.log; then echo "The build has warnings (see above)."; rm -f .build-output.log; exit 1; fi
	@rm -f .build-output.log
endif

swift-test: build
	$(SWIFT_TEST)

js-test:
	node --test web-client/tests/

# The operator's alert rules: valid, and each fires when its unit test says (synthetic series).
alerts-test: test-deps
	promtool check rules ops/prometheus/alerts.yml
	promtool test rules ops/prometheus/alerts_test.yml

# Two workers per core (pytest-xdist): every test starts servers of its own on free ports, and
# the PostgreSQL cluster is one per worker. The tests spend much of their time waiting for
# servers, browsers and deadlines: on 2 cores, 4 workers took 2 min 52 s where 2 took 3 min 30 s.
# Tests are handed out one by one and idle workers take queued ones from busy workers
# (worksteal): the pass is then as long as its work shared by four (280 s for 1,079 s of tests),
# where whole files per worker (loadfile) waited on the longest browser files (357 s).
# Load tests that time the server under load (marked `alone`) run afterwards, one at a time
# with nothing beside them.
E2E_WORKERS ?= $(shell echo $$(( 2 * $$(nproc) )))
# The pass names its 15 slowest tests (setup and teardown apart): where its time goes.
E2E_PYTEST = MATCHISMO_BIN=$(CURDIR)/.build/debug/matchismo $(PYTHON) -m pytest -q -rs
E2E_PARALLEL = $(E2E_PYTEST) --durations=15 --durations-min=5 -n $(E2E_WORKERS) --dist worksteal \
  -m "not alone" e2e
E2E_ALONE = $(E2E_PYTEST) -m alone e2e
e2e-test: build test-deps
	$(E2E_PARALLEL)
	$(E2E_ALONE)

# `make test`'s start: the debug build (which keeps both cores busy) beside the installation of
# what only the tests need (Chromium, PostgreSQL, HAProxy, the venv: mostly network and disk),
# whose output follows the build's. On a new machine that installation took about a minute.
# Before it, the Swift packages are resolved (a dozen clones and version checks: 12 s) beside
# the installation of what the build needs, rather than after it.
build-and-test-deps:
	@resolving=$$(mktemp); ( swift package resolve ) >"$$resolving" 2>&1 & resolve=$$!; \
	  ./scripts/apt-install-missing.sh $(SERVER_PACKAGES); packages=$$?; \
	  wait $$resolve; resolved=$$?; cat "$$resolving"; rm -f "$$resolving"; \
	  if [ $$resolved != 0 ]; then echo "Resolving the Swift packages failed (above)."; fi; \
	  [ $$packages = 0 ] && [ $$resolved = 0 ]
	@log=$$(mktemp); ( $(MAKE) --no-print-directory test-deps ) >"$$log" 2>&1 & deps=$$!; \
	  $(MAKE) --no-print-directory build; built=$$?; \
	  wait $$deps; installed=$$?; cat "$$log"; rm -f "$$log"; \
	  if [ $$installed != 0 ]; then echo "Installing what the tests need failed (above)."; fi; \
	  [ $$built = 0 ] && [ $$installed = 0 ]

# `make test`'s end, in three parts:
# 1. the end-to-end tests' parallel pass, which mostly waits on servers, browsers and deadlines,
#    with beside it the Swift tests (34 s alone; 870 tests) at the lowest nice priority, so that
#    they take the CPU the pass leaves idle rather than slow it down; their output follows the
#    pass's (their last lines, or all of it when one failed);
# 2. the load tests (marked `alone`), with beside them, at the idle CPU priority (SCHED_IDLE:
#    a process that runs only when no other wants the core, and gives it up at once when one
#    wakes), the fuzz targets' smoke run and the web client's and the alert rules' tests. The load
#    tests leave most of the machine idle (61 s of CPU in 89 s of wall on 2 cores: they wait
#    for windows, stalls and crowds), and their times beside that work were those alone (p99s
#    within the runs' own spread), where `nice -n 19` tripled them;
# 3. when that work is done, the load test that times the disk (marked `disk`), alone: beside
#    the fuzz build's writes and the Swift tests' databases its worst move took 283 ms, not 37.
# With the fuzz run and the client's tests beside the pass too, and the load tests after it
# alone, this took 444 s + 89 s.
E2E_BESIDE_IDLE = $(E2E_PYTEST) -m "alone and not disk" e2e
E2E_DISK = $(E2E_PYTEST) -m "alone and disk" e2e
IDLE_PRIORITY = chrt --idle 0
LOW_PRIORITY = nice -n 19
e2e-unit-and-fuzz: build test-deps
	@unit=$$(mktemp); ( $(LOW_PRIORITY) $(SWIFT_TEST) ) >"$$unit" 2>&1 & unit_pid=$$!; \
	  $(E2E_PARALLEL); e2e=$$?; \
	  wait $$unit_pid; tests=$$?; \
	  if [ $$tests = 0 ]; then tail -n 3 "$$unit"; else cat "$$unit"; fi; rm -f "$$unit"; \
	  fuzz=$$(mktemp); client=$$(mktemp); \
	  ( $(IDLE_PRIORITY) bash -c '$(FUZZ_SMOKE)' ) >"$$fuzz" 2>&1 & fuzz_pid=$$!; \
	  ( $(IDLE_PRIORITY) $(MAKE) --no-print-directory BUILT=1 js-test alerts-test ) >"$$client" 2>&1 & client_pid=$$!; \
	  $(E2E_BESIDE_IDLE); alone=$$?; \
	  wait $$fuzz_pid; smoke=$$?; wait $$client_pid; checks=$$?; \
	  if [ $$checks = 0 ]; then grep -E '^# (tests|pass|fail)|SUCCESS|promtool' "$$client"; \
	  else cat "$$client"; fi; \
	  cat "$$fuzz"; rm -f "$$fuzz" "$$client"; \
	  $(E2E_DISK); disk=$$?; \
	  if [ $$e2e != 0 ]; then echo "The end-to-end tests' parallel pass failed (above)."; fi; \
	  if [ $$tests != 0 ]; then echo "The Swift tests failed (above)."; fi; \
	  if [ $$alone != 0 ] || [ $$disk != 0 ]; then echo "The load tests failed (above)."; fi; \
	  if [ $$checks != 0 ]; then echo "The web client's tests or the alert rules failed (above)."; fi; \
	  if [ $$smoke != 0 ]; then echo "The fuzz targets' smoke run failed (above)."; fi; \
	  [ $$e2e = 0 ] && [ $$tests = 0 ] && [ $$alone = 0 ] && [ $$disk = 0 ] && [ $$smoke = 0 ] && \
	    [ $$checks = 0 ]

# Installs the Debian packages that are missing (apt-get update only when something is).
system-deps:
	@./scripts/apt-install-missing.sh $(SERVER_PACKAGES)

test-deps: system-deps $(VENV)/.installed
	@./scripts/apt-install-missing.sh $(TEST_PACKAGES)

# axe-core 4.12 (e2e/test_browser_axe.py) ships as axe.min.js inside axe-playwright-python, which
# is installed without its dependencies (Playwright is not needed), so it is not in requirements.txt.
# A venv that lacks it (made before it was added) is installed again.
AXE_PACKAGE := axe-playwright-python==0.1.8
AXE_JS := $(wildcard $(VENV)/lib/python3*/site-packages/axe_playwright_python/axe.min.js)
$(VENV)/.installed: e2e/requirements.txt $(if $(AXE_JS),,axe-missing)
	@python3 -c 'import ensurepip, venv' 2>/dev/null || ./scripts/apt-install-missing.sh python3-venv python3-pip
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r e2e/requirements.txt
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --no-deps $(AXE_PACKAGE)
	touch $@

.PHONY: axe-missing
axe-missing:

format:
	swift format -i -r Package.swift Sources Tests

clean:
	rm -rf .build $(VENV)
