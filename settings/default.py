"""Default settings: a local SQLite file, the page cache in the same file, polite crawling."""

from scrapy.settings.default_settings import EXTENSIONS_BASE as SCRAPY_EXTENSIONS

from journals.mdr import DEFAULT_MAX_NODE_LENGTH, DEFAULT_MAX_NODES, DEFAULT_THRESHOLD
from journals.pages import listings, navigation
from journals.vocabulary import core_attribute_names, metric_names

# Every project setting has its default here and only here: components read it with no default of their own, and
# journals.settings_check holds each to its type and range (SETTING_RULES) before a crawl starts.

BOT_NAME = "journals"
SPIDER_MODULES = ["journals.spiders"]
NEWSPIDER_MODULE = "journals.spiders"
COMMANDS_MODULE = "journals.commands"

USER_AGENT = "journals (+https://github.com/journals/journals; research crawler)"
ROBOTSTXT_OBEY = True
ROBOTSTXT_MAX_BYTES = 500 * 1024  # a longer robots.txt is read on its first 500 kB, as Google reads it
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 8
# Scrapy starts CONCURRENT_ITEMS worker tasks for every response's output (scrapy.utils.asyncio._parallel_asyncio),
# each taking the next request or item in turn. A page here yields at most one item, and yields it last (after its
# requests), so one worker does what more would: a request is only scheduled (never awaited), and items of different
# pages still go through the pipelines at once (each response has its own worker). More workers only cost tasks.
CONCURRENT_ITEMS = 1
DOWNLOAD_DELAY = 0
# A crawl whose start URL is on the public web (a real publisher, not the sandbox on 127.0.0.1) runs politely: these
# replace the defaults above at the spider's priority, so that -s or a settings module of one's own still wins.
PUBLIC_SITE_SETTINGS = {
    "DOWNLOAD_DELAY": 1.0,
    "RANDOMIZE_DOWNLOAD_DELAY": True,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
    "AUTOTHROTTLE_ENABLED": True,
    "AUTOTHROTTLE_START_DELAY": 1.0,
    "AUTOTHROTTLE_MAX_DELAY": 60.0,
    "AUTOTHROTTLE_TARGET_CONCURRENCY": 1.0,
}
DOWNLOAD_TIMEOUT = 30
# Seconds a host never contacted yet has to take a TCP connection before it is taken as not there (a live machine
# takes it in its kernel, however slow its web server): a dead start host fails in seconds, not after every retry.
FIRST_CONTACT_TIMEOUT = 5.0
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
RETRY_TIMES = 3
# A 429, or a 503 with Retry-After, slows its host down and is retried later on a budget of its own
# (journals.downloadermiddlewares.ratelimit, in place of Scrapy's RetryMiddleware): the host's delay rises to
# Retry-After (at most RATE_LIMIT_MAX_DELAY seconds) or doubles from RATE_LIMIT_START_DELAY, and eases by
# RATE_LIMIT_DECAY per answer.
RATE_LIMIT_RETRY_TIMES = 10
RATE_LIMIT_MAX_DELAY = 120.0
RATE_LIMIT_START_DELAY = 1.0
RATE_LIMIT_DECAY = 0.9
REDIRECT_MAX_TIMES = 10
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False  # 2.19's RemoteControl runs submitted code on localhost: never on by default
# Both are off, and out of Scrapy's base extensions so that their modules are not even imported (Scrapy imports
# every extension named in EXTENSIONS, a None one too): RemoteControl's brings in aiohttp, a quarter of a second of
# every crawl's start. To turn one on, name it in EXTENSIONS as well as setting its switch.
EXTENSIONS_BASE = {
    path: order
    for path, order in SCRAPY_EXTENSIONS.items()
    if path not in {"scrapy.extensions.remote_control.RemoteControl", "scrapy.extensions.telnet.TelnetConsole"}
}
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"
# Scrapy's log formatter, without building the "Crawled"/"Scraped" DEBUG lines a log above DEBUG drops.
LOG_FORMATTER = "journals.logformatter.QuietLogFormatter"
# Scrapy's stats collector, without the Python-level attribute lookup of each stats call (journals.extensions.stats).
STATS_CLASS = "journals.extensions.stats.CrawlStatsCollector"

# Where rows and cached pages go: any SQLAlchemy URL. DATABASE_URL in the environment wins (see journals.store).
DATABASE_URL = "sqlite:///journals.db"
DATABASE_BATCH_SIZE = 200

# Page cache: Scrapy's own middleware, our SQL storage. DummyPolicy keeps every page; set
# HTTPCACHE_POLICY = "scrapy.extensions.httpcache.RFC2616Policy" to revalidate on re-crawls and
# HTTPCACHE_IGNORE_MISSING = True to replay offline (see README).
HTTPCACHE_ENABLED = True
HTTPCACHE_STORAGE = "journals.downloadermiddlewares.httpcache.SQLCacheStorage"
HTTPCACHE_POLICY = "scrapy.extensions.httpcache.DummyPolicy"
HTTPCACHE_EXPIRATION_SECS = 0
HTTPCACHE_IGNORE_HTTP_CODES = [500, 502, 503, 504, 408, 429]

ITEM_PIPELINES = {
    "journals.pipelines.mdr.MDRPipeline": 200,
    "journals.pipelines.extraction.ExtractionPipeline": 300,
    "journals.pipelines.store.SQLStorePipeline": 900,
}

# A journal page is stored only when something on it confirms the list entry that led there (an ISSN, a metric,
# journal meta tags, a title or address matching the entry, a journal word in its name): others are counted in
# journals/unconfirmed, a few named per source (journals.extraction.confirmation).
CONFIRM_JOURNAL_PAGES = True

# The exported fields: the source record's keys, the vocabulary's core attributes, then every other attribute.
# Each metric's year, when its page writes one ("Impact factor 1.630 (2024)"), in a column of its own.
FEED_EXPORT_FIELDS = ["source", "url", *core_attribute_names(), *(f"{m}_year" for m in metric_names()), "attributes"]
FEED_EXPORTERS = {
    "csv": "journals.exporters.FlatCsvItemExporter",
    "json": "journals.exporters.MetricYearsJsonItemExporter",
    "jsonlines": "journals.exporters.MetricYearsJsonLinesItemExporter",
    "jsonl": "journals.exporters.MetricYearsJsonLinesItemExporter",
    "jl": "journals.exporters.MetricYearsJsonLinesItemExporter",
}
# Local feeds are written to FILE.tmp and replace FILE only when the crawl finishes: an interrupted crawl keeps
# the previous journals.csv whole (journals.exporters.AtomicFileFeedStorage).
FEED_STORAGES = {"": "journals.exporters.AtomicFileFeedStorage", "file": "journals.exporters.AtomicFileFeedStorage"}
# MDR's parameters (journals.mdr.mining holds the algorithm's values): the longest generalized node, the largest
# normalised edit distance of similar nodes, the main regions mined for the extraction, listings kept indexed.
MDR_MAX_NODE_LENGTH = DEFAULT_MAX_NODE_LENGTH
MDR_THRESHOLD = DEFAULT_THRESHOLD
MDR_MAIN_REGIONS = 3
MDR_LISTING_CACHE_SIZE = 64
# Learned extraction rules are kept in the database for the next crawl; a page replayed unchanged from the cache is
# extracted again unless EXTRACT_UNCHANGED_PAGES is off (journals.pipelines.extraction).
EXTRACTION_RULES_PERSIST = True
# Journals are extracted in a worker process of their own (their pages parsed again there from their text), so the
# crawl's analysis and extraction use two cores; False extracts in a thread of the crawl's process, on the trees the
# spider parsed (journals.pipelines.extraction).
EXTRACTION_PROCESS = True
EXTRACT_UNCHANGED_PAGES = True

# Crawl progress per source: live lines on a terminal, periodic log lines otherwise, off under scrapyd.
# Every finished crawl's stats go to the crawl_runs table (scrapy report shows the last one).
EXTENSIONS = {
    # The crawl's one database engine, shared by the page cache, the pipelines, resume and the extensions below.
    "journals.extensions.database.CrawlDatabase": 100,
    # The pages the spider read, kept by URL for the pipelines, with the page cache behind them.
    "journals.extensions.page_store.PageStore": 105,
    "journals.extensions.progress.ProgressExtension": 500,
    "journals.extensions.health.HealthExtension": 505,  # before crawl_runs, which records its health/* stats
    "journals.extensions.crawl_runs.CrawlRunsExtension": 510,
    # An interrupted crawl (Ctrl-C) marked in stats crawl/interrupted: its feeds keep the previous files, exit 130.
    "journals.extensions.interruption.InterruptionExtension": 515,
    "journals.extensions.lag.ReactorLagExtension": 520,
}
PROGRESS_ENABLED = True
PROGRESS_INTERVAL = None  # seconds between progress reports; unset: 2 on a terminal, 30 in a log
CRAWL_RUNS_ENABLED = True
# Python's cyclic collector looks over its youngest objects every GC_YOUNG_THRESHOLD new container objects once the
# crawl starts (Python's default: 700, kept when None); the older generations keep Python's ratios (10, 10). A crawl
# makes millions of objects and almost no reference cycles: at 700 the collector's passes took about a fifth of a
# cache replay's time and collected almost nothing (docs/ARCHITECTURE.md, measurements).
GC_YOUNG_THRESHOLD = 50_000
REACTOR_LAG_ENABLED = False  # the reactor's longest block in stats reactor/max_lag_seconds: a measurement's setting
REACTOR_LAG_INTERVAL = 0.05

# The store pipeline (journals.pipelines.store): while the database is unavailable (locked, gone) a batch is
# tried this many times, the delay doubling from DATABASE_RETRY_DELAY seconds, then the crawl stops with
# reason database_error. Journals not stored (and any the database refuses) are saved as JSON lines here.
DATABASE_WRITE_ATTEMPTS = 6  # 1 + 2 + 4 + 8 + 16 s: a database restart of half a minute loses nothing
DATABASE_RETRY_DELAY = 1.0
DATABASE_UNSAVED_DIR = "."

# Rendering (journals.downloadermiddlewares.rendering, journals.pages.script_signs): a page built by scripts is rendered
# in Debian's Chromium by scrapy-playwright, only when a request asks for it (RENDER_PAGES: "auto" renders the pages
# that need it, "browser" every page, "never" none; -a render wins, then this setting when chosen with -s, then the
# site registry's "render", then this default: journals.pages.rendering_state.resolve_render_mode); a crawl that
# renders nothing starts neither Playwright nor a browser. One browser, one context, a few pages at once, no images,
# fonts or media, a timeout per page, the browser launched again after a crash. Never `playwright install`: the
# browser is the system's.
RENDER_PAGES = "auto"
DOWNLOAD_HANDLERS = {
    "http": "journals.downloadermiddlewares.playwright_handler.LazyPlaywrightDownloadHandler",
    "https": "journals.downloadermiddlewares.playwright_handler.LazyPlaywrightDownloadHandler",
}
PLAYWRIGHT_BROWSER_TYPE = "chromium"
PLAYWRIGHT_LAUNCH_OPTIONS = {
    "executable_path": "/usr/bin/chromium",
    "headless": True,
    # --no-sandbox: crawls run as root in containers, where Chromium's sandbox cannot start.
    "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-quic"],
    "timeout": 30_000,
}
PLAYWRIGHT_MAX_CONTEXTS = 1
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT = 4
PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT = 30_000
PLAYWRIGHT_ABORT_REQUEST = "journals.downloadermiddlewares.rendering.abort_request"
PLAYWRIGHT_RESTART_DISCONNECTED_BROWSER = True
# Seconds a page may take to render, its letters clicked included; past it the page is fetched as served. A bound
# of the project's: Playwright's own timeouts do not cover a page created as the browser dies, which waits forever.
RENDER_TIMEOUT = 180

# Scope: no request leaves the crawl's site (scheme, host and port of its start URLs), through links, redirects,
# meta refreshes or the metrics hop, nor reaches a private address unless the start URL is on one
# (journals.downloadermiddlewares.offsite). It replaces Scrapy's offsite middleware and runs after
# HttpProxyMiddleware (750).
# A hash router's views (/#!/journal/acta) are pages of their own: their route stays in the fingerprint.
REQUEST_FINGERPRINTER_CLASS = "journals.scheduler.fingerprint.RouteFingerprinter"
# Scrapy's downloader middlewares that only set a header or a meta key run as one layer of the chain
# (journals.downloadermiddlewares.fused), each with its own code and settings, in Scrapy's order, at priorities as
# DOWNLOADER_MIDDLEWARES_BASE gives them; no other middleware has a hook between them, so no hook of the chain changes
# its place. DownloaderStats (850) stays a layer of its own: fused with them, it would count requests the scope
# middleware (760) refuses and miss the Cookie and Proxy-Authorization headers set after them.
FUSED_DOWNLOADER_MIDDLEWARES = {
    "scrapy.downloadermiddlewares.httpauth.HttpAuthMiddleware": 300,
    "scrapy.downloadermiddlewares.downloadtimeout.DownloadTimeoutMiddleware": 350,
    "scrapy.downloadermiddlewares.defaultheaders.DefaultHeadersMiddleware": 400,
    "scrapy.downloadermiddlewares.useragent.UserAgentMiddleware": 500,
}
DOWNLOADER_MIDDLEWARES = {
    **dict.fromkeys(FUSED_DOWNLOADER_MIDDLEWARES),
    "journals.downloadermiddlewares.fused.FusedDownloaderMiddleware": 400,
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    # robots.txt as RFC 9309 reads it (journals.downloadermiddlewares.robotstxt): unreachable (429, 5xx, network
    # error, timeout) disallows the host, 4xx allows it, and only its first ROBOTSTXT_MAX_BYTES are read, gzipped or
    # not.
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "journals.downloadermiddlewares.robotstxt.RobotsRulesMiddleware": 100,
    # Before HttpCompressionMiddleware (590) sees the response.
    "journals.downloadermiddlewares.robotstxt.RobotsBodyMiddleware": 595,
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "journals.downloadermiddlewares.ratelimit.RateLimitMiddleware": 550,
    "journals.downloadermiddlewares.offsite.ScopeMiddleware": 760,
    # Scrapy's redirects, but a loop ends where it is seen, as a failed page (journals.downloadermiddlewares.redirect).
    "scrapy.downloadermiddlewares.redirect.RedirectMiddleware": None,
    "journals.downloadermiddlewares.redirect.RedirectLoopMiddleware": 600,
    # Scrapy's meta refreshes, read where the spider parses the page rather than scanned on the reactor.
    "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
    "journals.downloadermiddlewares.redirect.ParsedMetaRefreshMiddleware": 580,
    # Before the page cache (900), which keeps a rendered page apart from the HTML its site served.
    "journals.downloadermiddlewares.rendering.RenderingMiddleware": 880,
    # A host is probed with a bare connection before its first download (after the page cache: a replay needs no
    # host); one that is not there fails its requests at once, one that never answers is not retried
    # (journals.downloadermiddlewares.first_contact).
    "journals.downloadermiddlewares.first_contact.FirstContactMiddleware": 950,
}

# Bounds on every crawl (journals.spiders.bounds.CrawlBounds): requests per source, letters nested in letters,
# listing pages per letter. Hitting one is taken for a spider trap: logged, counted in journals/bounds/KIND and
# failing the health check. A listing page whose journals are all known ends its branch (journals/repeated_listing).
CRAWL_MAX_PAGES_PER_SITE = 50_000
CRAWL_MAX_INDEX_DEPTH = 5
CRAWL_MAX_LISTING_PAGES = 200
# A listing's entry on another host of the publisher (a sister site) is followed, that origin in scope for its
# journal's request, redirects and metrics hop only.
FOLLOW_LISTED_JOURNAL_HOSTS = True
# Wide pages: the first MAX_ANCHORS_PER_PAGE anchors of a page are analysed, the first MDR_MAX_NODES elements mined;
# a page over a cap is logged and counted.
MAX_ANCHORS_PER_PAGE = navigation.MAX_ANCHORS_PER_PAGE
MDR_MAX_NODES = DEFAULT_MAX_NODES
# Characters of listing pages kept in memory for the MDR pipeline (journal requests name their listing by URL;
# older listings are read back from the page cache).
LISTING_MEMORY_CHARS = listings.DEFAULT_MAX_CHARS
# Characters of pages the spider parsed kept, trees and all, for the pipelines to read rather than parse again
# (journals.pages.parsed.RecentPages, in the crawl's journals.extensions.page_store.PageStore); a page dropped is
# parsed again from its text.
PARSED_PAGES_CHARS = 8 * 1024 * 1024

# Scrapy's spider middlewares that work one request or item at a time run in one layer of the spider's output
# (journals.spidermiddlewares.fused), each with its own code and settings, in Scrapy's order (priorities as
# SPIDER_MIDDLEWARES_BASE gives them); one layer each would wrap every page's output in some twenty generators.
FUSED_SPIDER_MIDDLEWARES = {
    "scrapy.spidermiddlewares.start.StartSpiderMiddleware": 25,
    "scrapy.spidermiddlewares.referer.RefererMiddleware": 700,
    "scrapy.spidermiddlewares.urllength.UrlLengthMiddleware": 800,
    "scrapy.spidermiddlewares.depth.DepthMiddleware": 900,
    "scrapy.spidermiddlewares.metacopy.MetaCopyDetectionMiddleware": 1000,
}
SPIDER_MIDDLEWARES = {
    **dict.fromkeys(FUSED_SPIDER_MIDDLEWARES),
    # Nearer the spider than resume (50), as the fused middlewares' own priorities are.
    "journals.spidermiddlewares.fused.FusedSpiderMiddleware": 500,
    # A JOBDIR resume after a crash or an outage walks the listings again and requests every journal not stored yet
    # (journals.spidermiddlewares.resume); off without JOBDIR.
    "journals.spidermiddlewares.resume.ResumeMiddleware": 50,
}

# The crawl's health check as it closes (journals.extensions.health): a source whose start page could not be
# fetched or that yields no journal fails the crawl; so does one losing more than this fraction of its journals,
# or a field's completeness dropping by more, next to its previous crawl, and so do invalid items or failed pages
# beyond these fractions; `scrapy crawl` then exits with status 3.
HEALTH_ENABLED = True
HEALTH_COVERAGE_MARGIN = 0.1
HEALTH_COMPLETENESS_MARGIN = 0.1
HEALTH_MAX_INVALID_ITEMS = 0.0
HEALTH_MAX_ERROR_RATE = 0.2
HEALTH_PREVIOUS_CRAWL_HOURS = 24.0

# The shared frontier of a distributed crawl (settings.distributed, journals.scheduler.frontier): its Redis keys
# expire after FRONTIER_TTL_SECS; a worker beats every FRONTIER_HEARTBEAT_SECS, one silent for
# FRONTIER_WORKER_TIMEOUT_SECS is dead and its leases go back to the queue, and so does a lease older than
# FRONTIER_LEASE_SECS, whoever holds it.
CRAWL_ID = ""  # the crawl every worker joins; settings.distributed takes it from the environment
FRONTIER_TTL_SECS = 7 * 24 * 3600
FRONTIER_HEARTBEAT_SECS = 1.0
FRONTIER_WORKER_TIMEOUT_SECS = 30.0
FRONTIER_LEASE_SECS = 600.0

# Recurring crawls (scrapy schedule, journals.commands.schedule): the scrapyd project they run in, how often the
# plans are looked at, and where the last start of each plan is remembered.
SCRAPYD_PROJECT = "journals"
SCRAPYD_URLS = "http://127.0.0.1:6800/"  # comma-separated; SCRAPYD_URLS in the environment wins
CRAWL_SCHEDULE = None  # the plans, as settings/schedule.json holds them (a dict or its JSON text); unset: that file
# Settings every scheduled job is started with: re-crawls revalidate every cached page with the site
# (If-None-Match / If-Modified-Since) instead of replaying it as the default DummyPolicy would.
SCHEDULE_JOB_SETTINGS = {
    "HTTPCACHE_POLICY": "scrapy.extensions.httpcache.RFC2616Policy",
    "EXTRACT_UNCHANGED_PAGES": False,
}
SCHEDULE_POLL_SECS = 60.0
SCHEDULE_STATE_FILE = ".schedule-state.json"
