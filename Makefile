# shipdesk — the two commands are `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
BIN := bin/shipdesk
DEV_PG := var/pg
TEST_PG := var/pgtest
# Four packages at a time on two cores, and four tests at a time in each
# (every test has its own database, sandbox and dashboard; the browser tests
# two tabs at a time), so the cores never wait on one test's pauses (the
# browser, the sandbox's latencies, the pollers' ticks): a whole run keeps both
# busy from start to end. The browser tests' package takes about 6 minutes
# alone and 12 beside the others on two cores: its limit is 30 minutes, so the
# limit catches a hang, not a loaded machine.
GO_TEST_FLAGS ?= -race -count=1 -timeout 30m -p 4 -parallel 4
# The browser tests run beside the other tests, their rerun and then the
# browser's clock journeys (two chains of about the same length, so that
# neither ends with a core idle: the browser tests alone keep under two
# busy), without the race detector: chromium does four fifths of their work,
# and what they drive at a person's pace (the handlers, the pollers, the page
# cache) the HTTP tests drive under the detector, concurrently and faster.
# Watching them cost a run about two minutes of CPU. The reruns below ask
# about answer shapes and dates, not about concurrency: the race detector has
# already watched those tests once. The journeys' rerun keeps the first
# pass's screenshots.
RERUN_FLAGS ?= -count=1 -timeout 30m -p 4 -parallel 4
BROWSER_LOG := var/browser-tests.log

.PHONY: run build test check vet fmt-check generate stop-db db test-db chromium bench vendor-htmx clean

## run: private PostgreSQL (unless DATABASE_URL is set), migrate, demo users, serve on 127.0.0.1:8080
run: build
	@if [ -z "$${DATABASE_URL:-}" ]; then DATABASE_URL=$$(scripts/pg.sh start $(DEV_PG)); export DATABASE_URL; fi; \
	exec ./$(BIN) serve --migrate --seed-demo --sandbox-state $${SANDBOX_STATE:-var/sandbox.json}

build:
	$(GO) build -o $(BIN) ./cmd/shipdesk

# The dashboard's packages run a second time, with what the first pass held
# fixed turned over: the sandbox's minimal answer shapes (only what the
# contract and the provider's examples guarantee) and the test clock in the
# future. The first pass starts the clock at sandboxtest.DefaultEpoch (a
# Monday in the past of any day this runs), the second at FUTURE_EPOCH
# (SHIPDESK_TEST_EPOCH, a Monday at 09:00 UTC), so no test can lean on
# today's date on either side. The browser's clock-sensitive journeys run in
# the future too, on the full answers their pages show.
MINIMAL_PKGS := ./client/... ./desk/... ./jobs/... ./web/... ./workbench/... ./upstream/...
FUTURE_EPOCH := 2031-03-03T09:00:00Z
# The browser's journeys through dates: labels, pickups, the day's orders, the
# attention queue's ages, the simulated clock in the banner.
CLOCK_TESTS := Label|ClerksDay|ClerkOrders|Pickup|Attention|Banner

## test: vet, format and generate checks, then every test (unit, storage, HTTP, sandbox, browser),
## then the dashboard's tests again against the sandbox's minimal answers with the test
## clock after today, and the browser's clock-sensitive journeys with that clock
test: check test-db chromium
	@export TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/pg.sh start $(TEST_PG) --fast)}; \
	$(GO) test $(RERUN_FLAGS) ./e2e/ > $(BROWSER_LOG) 2>&1 & browser=$$!; \
	rc=0; { $(GO) test $(GO_TEST_FLAGS) $$($(GO) list ./... | grep -v '/e2e$$') && \
	  echo "again against the sandbox's minimal answer shapes, the test clock starting at $(FUTURE_EPOCH):" && \
	  SANDBOX_SHAPES=minimal SHIPDESK_TEST_EPOCH=$(FUTURE_EPOCH) $(GO) test $(RERUN_FLAGS) $(MINIMAL_PKGS) && \
	  echo "the browser's clock-sensitive journeys again, the test clock starting at $(FUTURE_EPOCH):" && \
	  SHIPDESK_TEST_EPOCH=$(FUTURE_EPOCH) SHIPDESK_SCREENSHOTS=failures $(GO) test $(RERUN_FLAGS) -run '$(CLOCK_TESTS)' ./e2e/; \
	} || rc=$$?; \
	wait $$browser || rc=$$?; echo "the browser tests ($(BROWSER_LOG)):"; cat $(BROWSER_LOG); exit $$rc
	@cat var/reports/*.txt 2>/dev/null || true

check: vet fmt-check generate

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$') 2>&1); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@$(GO) tool templ fmt -fail . >/dev/null 2>&1 || { echo "templ fmt would change .templ files: run go tool templ fmt ."; exit 1; }

## generate: templ generate must leave the committed files unchanged
generate:
	@$(GO) tool templ generate >/dev/null 2>&1 || $(GO) tool templ generate
	@if [ -n "$$(git status --porcelain -- '*_templ.go')" ]; then \
		echo "templ generate changed generated files (commit them):"; git status --porcelain -- '*_templ.go'; exit 1; fi

db:
	@scripts/pg.sh start $(DEV_PG) >/dev/null

stop-db:
	@scripts/pg.sh stop $(DEV_PG)
	@scripts/pg.sh stop $(TEST_PG)

## chromium: Debian's chromium (its headless build) for the browser tests, installed when missing
chromium:
	@command -v chromium-headless-shell >/dev/null 2>&1 || scripts/install-chromium.sh

## bench: the day at the desk (one run of about two minutes: a real serve process under 200 live
## pages, 10 clerks, the pollers and a batch), then every other benchmark, then one table of the
## figures they reported (scripts/benchtable.sh over Go's benchmark output, kept in var/bench.txt);
## SHIPDESK_BENCH_SHIPMENTS lowers the big database's size for a quick look, SHIPDESK_DAY_SECONDS
## the day's length. The browser tests' package has none (and would need chromium to start), so
## it is left out
bench: test-db
	@mkdir -p var; export TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/pg.sh start $(TEST_PG) --fast)}; \
	{ $(GO) test -run '^$$' -bench '^BenchmarkDayAtTheDesk$$' -benchtime 1x -timeout 20m ./cmd/shipdesk/ && \
	  SHIPDESK_BENCH_BATCH_BIG=1 $(GO) test -run '^$$' -bench . -skip '^BenchmarkDayAtTheDesk$$' -benchmem -timeout 60m \
	    $$($(GO) list ./... | grep -v '/e2e$$'); } | tee var/bench.txt
	@echo; scripts/benchtable.sh var/bench.txt

test-db:
	@scripts/pg.sh start $(TEST_PG) --fast >/dev/null

## vendor-htmx: refresh the vendored htmx files (pinned versions, never "latest")
vendor-htmx:
	@tmp=$$(mktemp -d); cd $$tmp && npm pack --silent htmx.org@2.0.11 htmx-ext-response-targets@2.0.4 >/dev/null && \
	tar xzf htmx.org-2.0.11.tgz && cp package/dist/htmx.min.js $(CURDIR)/static/htmx.min.js && rm -rf package && \
	tar xzf htmx-ext-response-targets-2.0.4.tgz && cp package/dist/response-targets.min.js $(CURDIR)/static/response-targets.js && \
	rm -rf $$tmp

clean: stop-db
	rm -rf bin var
