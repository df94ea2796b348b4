# journals: the two set-up commands are `make crawl` and `make test`; everything else builds on them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SCRAPY := $(VENV)/bin/scrapy
STAMP := $(VENV)/.installed
SEED ?= 1
JOURNALS ?= 2000
# The sites, from the one site registry (settings/sites.json), read with the system Python: no venv needed yet.
SITES = $(PYTHON) -m journals.domain.sites
SOURCES := $(shell $(SITES) --kind publisher --kind aggregator --kind realweb)
HELDOUT := $(shell $(SITES) --kind heldout)
# Sites built from a description of the real web by helpers who never read the crawler (issue 23's first contact).
UNSEEN := $(shell $(SITES) --kind unseen)
# The script-built sites: rendered in Chromium (journals.downloadermiddlewares.rendering); crawled by make evaluate, not by make crawl.
SCRIPTED := $(shell $(SITES) --kind scripted)
LABELLED := $(shell $(SITES) --labelled)

.PHONY: crawl browse report test lint fuzz evaluate eval-mdr eval-real bench clean scrapyd deploy schedule scrapyd deploy schedule

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $(STAMP)

# The main job: start the sandbox web on a free port, crawl its publishers and aggregators into journals.db (each
# source's records also to journals-sources.csv/json), then write the journals table, one row per journal, to
# journals.csv and journals.json (scrapy export: docs/RESULTS.md), and stop the sandbox. The sandbox's ground truth
# goes to truth.json. The sandbox is stopped however the recipe ends (the EXIT trap; Ctrl-C, SIGTERM and SIGHUP end
# the shell through it once the crawl has stopped, and a background job of a non-interactive shell ignores Ctrl-C
# itself). An interrupted crawl keeps the previous files and exits 130; a crawl that failed its health check (exit
# 3) still writes the table, and exits 3.
crawl: $(STAMP)
	@rm -f .sandbox.url
	@$(SCRAPY) sandbox --port 0 --seed $(SEED) --journals $(JOURNALS) --truth truth.json --url-file .sandbox.url & \
	pid=$$!; trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null; rm -f .sandbox.url' EXIT; \
	trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; \
	while [ ! -s .sandbox.url ] && kill -0 $$pid 2>/dev/null; do sleep 0.2; done; \
	[ -s .sandbox.url ] || { echo "sandbox did not start" >&2; exit 1; }; \
	url=$$(cat .sandbox.url); starts=$$(for s in $(SOURCES); do printf '%s/%s/,' "$$url" "$$s"; done); \
	$(SCRAPY) crawl publisher -a start_urls=$${starts%,} -O journals-sources.csv -O journals-sources.json $(CRAWL_ARGS); \
	status=$$?; [ $$status -eq 0 ] || [ $$status -eq 3 ] || exit $$status; \
	$(SCRAPY) export journals.csv journals.json || exit $$?; exit $$status

# Browse the database that `make crawl` wrote (docs/RESULTS.md): Datasette on 127.0.0.1:$(BROWSE_PORT) with facets
# and canned queries; the browsing views are created first. Run `scrapy integrate` once before, for the journals.
BROWSE_PORT ?= 8001
browse: $(STAMP)
	$(SCRAPY) browse --port $(BROWSE_PORT)

# One HTML page of the crawl: stats, quality against truth.json (when present), metric distributions.
report: $(STAMP)
	$(SCRAPY) report -o report.html $$([ -f truth.json ] && echo --truth truth.json)

# The paper's Table 3 for a sandbox crawl: precision, recall, F1 per site and attribute, macro F1, coverage.
# The held-out site (never developed against) and the script-built sites are crawled too; a site without labels (metricsdb: see integrate) is
# not scored per attribute (settings/sites.json says which).
evaluate: $(STAMP)
	@$(MAKE) --no-print-directory crawl SOURCES="$(SOURCES) $(HELDOUT) $(UNSEEN) $(SCRIPTED)"
	$(SCRAPY) evaluate --truth truth.json journals-sources.json \
	  $(foreach s,$(filter $(LABELLED),$(SOURCES) $(HELDOUT) $(UNSEEN) $(SCRIPTED)),--site $(s))

# The suite runs on TEST_WORKERS pytest-xdist workers, tests grouped by file (2: one per core, about half the 13 min
# in-process); TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= 2
# The servers the tests start (PostgreSQL, Redis, Chromium) come from Debian: .ci/system-packages installs those
# missing (with sudo when not root) and does nothing when they are there.
test: $(STAMP)
	.ci/system-packages
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadfile --durations=15

# ruff over everything; mypy --strict over every folder but Scrapy's role folders and the sandbox (pyproject.toml).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The pure code (tag tree, MDR, navigation, extraction, value parsers, decoding, linkage) under hypothesis at scale:
# FUZZ_EXAMPLES generated inputs per target, pages up to FUZZ_MAX_SIZE deep or wide (make test runs a few).
FUZZ_EXAMPLES ?= 2000
FUZZ_MAX_SIZE ?= 4000
fuzz: $(STAMP)
	$(PY) -m lab.fuzz --examples $(FUZZ_EXAMPLES) --max-size $(FUZZ_MAX_SIZE)

# Operations (docs/OPERATIONS.md): a local scrapyd on 127.0.0.1 with HTTP Basic auth, deploying to it, and the
# scheduler of recurring crawls. All three need SCRAPYD_USERNAME and SCRAPYD_PASSWORD in the environment.
SCRAPYD_DIR ?= .scrapyd
SCRAPYD_HTTP_PORT ?= 6800
DEPLOY_TARGET ?= default
define require_scrapyd_credentials
	@[ -n "$$SCRAPYD_USERNAME" ] && [ -n "$$SCRAPYD_PASSWORD" ] || { \
	echo "make $@: set SCRAPYD_USERNAME and SCRAPYD_PASSWORD (scrapyd runs only with HTTP Basic auth)" >&2; exit 2; }
endef

scrapyd: $(STAMP)
	$(require_scrapyd_credentials)
	@mkdir -p $(SCRAPYD_DIR)
	cd $(SCRAPYD_DIR) && SCRAPYD_BIND_ADDRESS=127.0.0.1 SCRAPYD_HTTP_PORT=$(SCRAPYD_HTTP_PORT) \
	exec $(abspath $(VENV))/bin/scrapyd --pidfile=

deploy: $(STAMP)
	$(require_scrapyd_credentials)
	$(VENV)/bin/scrapyd-deploy $(DEPLOY_TARGET)

schedule: $(STAMP)
	$(require_scrapyd_credentials)
	$(SCRAPY) schedule $(SCHEDULE_ARGS)

clean:
	rm -rf $(VENV) journals.db journals.csv journals.json journals-sources.csv journals-sources.json truth.json bench.json bench-failed.log .sandbox.url report.html journals-snapshot.db

# MDR data-record mining: record-level precision, recall and F1 on the labelled sets in ../shared/data/mdr.
eval-mdr: $(STAMP)
	$(PY) -m lab.mdr.evaluation

# The real saved pages of ../shared/data/real (JOURNALS_REAL_PAGES overrides), replayed under their original URLs by
# a local proxy: per list page a real crawl's recall and precision, per journal page the attributes right, wrong and
# missing. A measurement: exit status 0 whatever the figures. EVAL_REAL_ARGS: e.g. --json real.json --crawl-timeout 60
eval-real: $(STAMP)
	$(PY) -m lab.replay.evaluation $(EVAL_REAL_ARGS)

# Every speed figure beside its reference, medians of BENCH_REPEATS runs; prints the table, writes bench.json.
# BENCH_SCALE sets the journal counts of the scale figure (issue 7 asks for 10000,100000: about an hour).
# scale-workers: pages/s of 1, 2 and 4 distributed workers on one sandbox site at 200 ms per response (Redis and
# PostgreSQL from Debian, as the operations tests).
# render: pages/s of a crawl of the script-built sites rendered in Chromium (issue 16) against their prerendered
# twin (scrapy sandbox --prerendered, no browser), the pages rendered and the browser's peak memory (2,000 journals).
BENCH_REPEATS ?= 3
BENCH_SCALE ?= 10000,100000
BENCH_ONLY ?= crawl,render,algorithms,store,integration,scale,scale-workers
bench: $(STAMP)
	$(PY) -m lab.benchmarks --repeats $(BENCH_REPEATS) --scale $(BENCH_SCALE) --only $(BENCH_ONLY)

# Reliability (issue 8, docs/RELIABILITY.md): a hostile-sandbox crawl, kill -9 and JOBDIR resume at random moments,
# a locked SQLite file, PostgreSQL stopped for 10 s, a full then read-only disk; prints faults injected, journals
# that survived them and journals lost, and writes them under RELIABILITY_REPORT's "## Measured" heading (root and
# Debian's postgresql for the disk and PostgreSQL scenarios, else they are reported as skipped). About 5 minutes.
RELIABILITY_REPORT ?= docs/RELIABILITY.md
.PHONY: reliability
reliability: $(STAMP)
	$(PY) -m lab.reliability --markdown $(RELIABILITY_REPORT)
