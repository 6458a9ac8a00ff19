# dsol — common tasks. `make run` starts the server, `make test` runs every test.
GO ?= go

.PHONY: run test race-all e2e-all vet bench property fuzz load-race solve-sample solve-wide solve-check hint-rate bot-duel cluster screenshots pageload winnable-list winnable-check

## run: start the server on http://localhost:8080 with the SQLite file dsol.db
run:
	$(GO) run ./cmd/dsol serve

## test: every Go test, a summary of the failures and the skipped tests with
## their reasons, then the web client's unit tests. The race detector runs on
## every package but NORACE: the engine packages, whose code runs on one
## goroutine (their pools and tables are shared by the server, whose packages
## run under the detector), and the browser tests, whose server code the API
## packages' tests drive under the detector too. The two go test runs go at
## once, the one without the detector a package at a time (the browser tests
## run in parallel inside theirs), so that no more than three packages share
## the cores: the cluster test's takeover bound is a time. race-all runs
## every package under the detector.
NORACE := ./internal/cards ./internal/klondike ./internal/solo ./internal/solver ./internal/solver/tally ./internal/hint ./internal/race ./internal/e2e
test:
	GO=$(GO) $(GO) run ./cmd/testsum -p 1 -count=1 -timeout 20m $(NORACE) \
	  :: -race -count=1 -timeout 20m $$($(GO) list ./... | grep -v -x $(foreach p,$(NORACE),-e dsol/$(patsubst ./%,%,$(p))))
	node --test web/

## race-all: every Go test under the race detector, the browser tests and the
## engine packages too
race-all:
	GO=$(GO) $(GO) run ./cmd/testsum -race -count=1 -timeout 40m ./...

## e2e-all: the browser tests in all four combos of a phone or a desktop and
## the light or the dark theme; make test runs each screen in the pair that
## shows each viewport and each theme once (phone-light, desktop-dark)
e2e-all:
	DSOL_E2E_COMBOS=all $(GO) test -race -count=1 -timeout 40m ./internal/e2e

vet:
	$(GO) vet ./...

## screenshots: the pictures at the top of README.md (docs/*.jpg), taken by
## the browser tests in headless Chromium (DSOL_CHROMIUM names its binary)
screenshots:
	DSOL_SCREENSHOTS=$(CURDIR)/docs $(GO) test -count=1 -run '^TestReadmeScreenshots$$' ./internal/e2e

## cluster: the cluster as deployed (TestClusterNginx): three dsol processes on
## PostgreSQL behind nginx with deploy/nginx/dsol.conf, a node killed mid-play,
## then a rolling upgrade from the previous commit. Needs nginx and PostgreSQL
## (source .ci/postgres.sh first): fails, not skips, without them.
cluster:
	DSOL_REQUIRE_ALL=1 $(GO) test -count=1 -run '^TestClusterNginx$$' -v ./cmd/dsol

## bench: the engine and server benchmarks, with allocation counts
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

## property: long property runs (tune with GAMES, RACES and STATS)
GAMES ?= 200000
RACES ?= 50000
STATS ?= 200
property:
	DSOL_PROPERTY_GAMES=$(GAMES) DSOL_PROPERTY_RACES=$(RACES) DSOL_PROPERTY_STATS=$(STATS) $(GO) test -count=1 -run Property -timeout 2h \
	  ./internal/solo ./internal/race ./internal/store/sqlite ./internal/store/postgres

## fuzz: each fuzz target for FUZZTIME (default 1m)
FUZZTIME ?= 1m
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

## load-race: the race pattern against a running server: dsol load --mode race
## three times, then --mode race-play once, each after printing the load
## average. LOAD_PID (the server's process on this machine, or a comma-separated
## list of processes) measures its CPU time from /proc, else from its /metrics. Start the server with high
## --ws-rate/--ws-burst and --write-rate/--write-burst (see docs/performance.md).
LOAD_URL ?= http://127.0.0.1:8080
LOAD_PID ?=
LOAD_RACES ?= 100
LOAD_DURATION ?= 20s
LOAD_SETUP ?= 3s
load-race:
	@dir=$$(mktemp -d) && $(GO) build -o $$dir/dsol ./cmd/dsol && \
	for mode in race race race race-play; do \
	  echo "== $$mode, load average $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	  $$dir/dsol load --mode $$mode --url $(LOAD_URL) --races $(LOAD_RACES) --duration $(LOAD_DURATION) \
	    --setup $(LOAD_SETUP) $(if $(LOAD_PID),--pid $(LOAD_PID)) || { rm -r $$dir; exit 1; }; \
	done; \
	echo "== done, load average $$(cut -d' ' -f1-3 /proc/loadavg)"; rm -r $$dir

## pageload: first contentful paint and bytes of the solo page in headless
## Chromium, cold and warm, for the server built at FROM (a commit, default HEAD)
## and the one built from the working tree, measured in turn for ROUNDS rounds;
## prints medians. PAGELOAD_FLAGS adds flags of cmd/pageload (-rtt 150ms -mbps 1.6
## emulates a slow link). Needs Chromium (DSOL_CHROMIUM, else /usr/bin/chromium).
FROM ?= HEAD
ROUNDS ?= 9
PAGELOAD_FLAGS ?=
pageload:
	@dir=$$(mktemp -d) && mkdir $$dir/src && git archive $(FROM) | tar -x -C $$dir/src && \
	(cd $$dir/src && $(GO) build -o $$dir/from ./cmd/dsol) && $(GO) build -o $$dir/tree ./cmd/dsol && \
	$(GO) run ./cmd/pageload -rounds $(ROUNDS) $(PAGELOAD_FLAGS) $(FROM)=$$dir/from tree=$$dir/tree; \
	status=$$?; rm -rf $$dir; exit $$status

## solve-sample: solve SAMPLE random deals of each of the four solo modes
## (SAMPLE_NORMAL and SAMPLE_VEGAS set the two apart; the same deal numbers in
## every mode), each search bounded by POSITIONS positions, depth first
## (so the verdicts do not depend on the machine), SAMPLE_WORKERS searches at
## once, at the lowest priority. Each mode's verdicts go to SOLVE_DIR/MODE.txt as
## they are found, and a rerun goes on from there; each mode takes what the
## modes before it proved of the same deals (a win at draw 3 is one at draw 1,
## a Normal proof of no win one in Vegas). Then the Vegas deals left unknown are
## searched again by a beam (BEAM_D3V and BEAM_D1V wide), into MODE-beam.txt,
## the draw-1 beam taking the draw-3 beam's wins.
## See docs/solver.md.
SAMPLE ?= 10000
SAMPLE_NORMAL ?= $(SAMPLE)
SAMPLE_VEGAS ?= $(SAMPLE)
POSITIONS ?= 1000000
SAMPLE_WORKERS ?= 1
SOLVE_DIR ?= solve-runs
BEAM_D3V ?= 2000
BEAM_D1V ?= 500
solve-sample:
	@mkdir -p $(SOLVE_DIR) && $(GO) build -o $(SOLVE_DIR)/dsol ./cmd/dsol && cd $(SOLVE_DIR) && \
	run() { nice -n 19 ./dsol solve --positions $(POSITIONS) --seed 1 --workers $(SAMPLE_WORKERS) "$$@" || exit 1; } && \
	run --sample $(SAMPLE_NORMAL) --draw 3 --scoring normal --out D3N.txt && \
	run --sample $(SAMPLE_NORMAL) --draw 1 --scoring normal --out D1N.txt --from D3N.txt && \
	run --sample $(SAMPLE_VEGAS) --draw 3 --scoring vegas --beam 0 --out D3V.txt --from D3N.txt --from D1N.txt && \
	run --sample $(SAMPLE_VEGAS) --draw 1 --scoring vegas --beam 0 --out D1V.txt --from D1N.txt --from D3V.txt && \
	run --sample $(SAMPLE_VEGAS) --draw 3 --scoring vegas --beam $(BEAM_D3V) --out D3V-beam.txt --from D3V.txt && \
	run --sample $(SAMPLE_VEGAS) --draw 1 --scoring vegas --beam $(BEAM_D1V) --out D1V-beam.txt --from D1V.txt --from D1N.txt --from D3V-beam.txt

## solve-wide: the first WIDE_SAMPLE deals of each Vegas mode of solve-sample's
## seed (draw 3 depth first, then by a beam of BEAM_D3V; draw 1 by a beam of
## BEAM_D1V alone), then the deals left unknown by beams ten times as wide (and
## at draw 1 a hundred times) within ten (a hundred) times the positions, the
## widest draw-1 beam taking the wins of the draw-3 beam of BEAM_D3V; last, the
## draw-3 deals still unknown depth first within ten, then twenty times the
## positions, for proofs of loss. Into WIDE_DIR. See docs/solver.md.
WIDE_SAMPLE ?= 1000
WIDE_DIR ?= solve-wide
WIDE_WORKERS ?= 2
solve-wide:
	@mkdir -p $(WIDE_DIR) && $(GO) build -o $(WIDE_DIR)/dsol ./cmd/dsol && cd $(WIDE_DIR) && \
	run() { nice -n 19 ./dsol solve --sample $(WIDE_SAMPLE) --scoring vegas --seed 1 --workers $(WIDE_WORKERS) "$$@" || exit 1; } && \
	run --draw 1 --positions $(POSITIONS) --beam $(BEAM_D1V) --out D1V-$(BEAM_D1V).txt && \
	run --draw 1 --positions $$(( 10 * $(POSITIONS) )) --beam $$(( 10 * $(BEAM_D1V) )) --out D1V-$$(( 10 * $(BEAM_D1V) )).txt --from D1V-$(BEAM_D1V).txt && \
	run --draw 3 --positions $(POSITIONS) --beam 0 --out D3V.txt && \
	run --draw 3 --positions $(POSITIONS) --beam $(BEAM_D3V) --out D3V-$(BEAM_D3V).txt --from D3V.txt && \
	run --draw 1 --positions $$(( 100 * $(POSITIONS) )) --beam $$(( 100 * $(BEAM_D1V) )) --out D1V-$$(( 100 * $(BEAM_D1V) )).txt --from D1V-$$(( 10 * $(BEAM_D1V) )).txt --from D3V-$(BEAM_D3V).txt && \
	run --draw 3 --positions $$(( 10 * $(POSITIONS) )) --beam $$(( 10 * $(BEAM_D3V) )) --out D3V-$$(( 10 * $(BEAM_D3V) )).txt --from D3V-$(BEAM_D3V).txt && \
	run --draw 3 --positions $$(( 10 * $(POSITIONS) )) --beam 0 --out D3V-deep.txt --from D3V-$$(( 10 * $(BEAM_D3V) )).txt && \
	run --draw 3 --positions $$(( 20 * $(POSITIONS) )) --beam 0 --out D3V-deeper.txt --from D3V-deep.txt

## hint-rate: HINT_DEALS random deals of each of the four solo modes played by a
## player who always follows the hint, and by one who always plays the race bot's choice;
## then HINT_WINNABLE shipped winnable deals of each Vegas mode, each game the hint player
## loses searched for the action that lost it
HINT_DEALS ?= 200
HINT_WINNABLE ?= 200
hint-rate:
	@for d in 1 3; do for s in normal vegas; do \
	  $(GO) run ./cmd/dsol hint-rate --sample $(HINT_DEALS) --draw $$d --scoring $$s || exit 1; \
	done; done && \
	for d in 1 3; do \
	  $(GO) run ./cmd/dsol hint-rate --sample $(HINT_WINNABLE) --draw $$d --scoring vegas --winnable --first-loss 1000000 || exit 1; \
	done

## bot-duel: BOT_RACES races of the strong bot against the normal one, on
## BOT_RACES/2 random DR1/DR2 deals each played both ways round, at the lowest priority
BOT_RACES ?= 200
bot-duel:
	nice -n 19 $(GO) run ./cmd/dsol bot-duel --races $(BOT_RACES) --seed 1

## solve-check: CHECK real deals per mode solved by the tally solver with
## CHECK_POSITIONS positions, then again with every pruning off (4× the budget),
## by the whole-board search with its prunings off, and by the relaxation with
## free low cards: the same verdicts whenever two reach one (a relaxed proof of
## no win never meets a win), every won line replayed. A deal left unknown by
## the first search is not searched again. WORKERS deals at once.
CHECK ?= 75
CHECK_POSITIONS ?= 1000000
WORKERS ?= 1
solve-check:
	DSOL_TALLY_EXACT_DEALS=$(CHECK) DSOL_TALLY_EXACT_POSITIONS=$(CHECK_POSITIONS) DSOL_TALLY_EXACT_WORKERS=$(WORKERS) \
	  nice -n 19 $(GO) test -count=1 -run TestExactAgrees -v -timeout 48h ./internal/solver/tally

## winnable-list: the shipped lists of winnable deals, internal/winnable/deals/MODE.txt
## (seed 1) or MODE-SEED.txt for each of MODES: the first COUNT_NORMAL (Normal) or
## COUNT_VEGAS (Vegas) deals of the mode's stream for SEED that the tally solver wins
## within BUDGET_NORMAL or BUDGET_VEGAS positions each, every win checked through the
## engine, at the lowest priority. A list of the same solver, budget and seed is
## extended, not started again; FOR bounds each mode's run (0: none), WORKERS the
## searches at once. A list written for FOR short of its count says so in its
## "searched" line. A mode deals the deals of all its lists. BEAM_VEGAS above 0
## has the tally solver search the Vegas deals with a beam that wide.
COUNT_NORMAL ?= 10000
COUNT_VEGAS ?= 1000
BUDGET_NORMAL ?= 1000000
BUDGET_VEGAS ?= 1000000
SEED ?= 1
FOR ?= 0
BEAM_VEGAS ?= 0
MODES ?= D1N D3N D1V D3V
winnable-list:
	@for m in $(MODES); do \
	  case $$m in *N) n=$(COUNT_NORMAL); b=$(BUDGET_NORMAL); w=0;; *) n=$(COUNT_VEGAS); b=$(BUDGET_VEGAS); w=$(BEAM_VEGAS);; esac; \
	  nice -n 19 $(GO) run ./cmd/dsol winnable --mode $$m --count $$n --budget $$b --beam $$w --seed $(SEED) \
	    --for $(FOR) --workers $(WORKERS) --out internal/winnable/deals/$$m$(if $(filter 1,$(SEED)),,-$(SEED)).txt || exit 1; \
	done

## winnable-check: every deal of the shipped lists solved again with its budget,
## its winning line played through the solo engine (the tests check a sample);
## CHECK=D3V,D1V checks every deal of those modes' lists only, CHECK=D3V-2.txt
## every deal of that list (in its mode and in the mode that carries it)
CHECK ?= all
winnable-check:
	DSOL_WINNABLE_CHECK=$(CHECK) $(GO) test -count=1 -run TestShippedListsWin -v -timeout 6h ./internal/winnable
