"""Rendering in a browser: which requests are rendered and what a rendered request asks the page to do.

Every request goes through :class:`journals.downloadermiddlewares.playwright_handler.LazyPlaywrightDownloadHandler`;
only one whose meta has ``playwright`` is rendered (``DOWNLOAD_HANDLERS`` in ``settings/default.py``), in Debian's
``/usr/bin/chromium``
(``PLAYWRIGHT_LAUNCH_OPTIONS``): one browser, one context, ``PLAYWRIGHT_MAX_PAGES_PER_CONTEXT`` pages at once,
images, fonts and media never fetched (:func:`abort_request`), a timeout per page, the browser launched again when
it crashed (scrapy-playwright's ``PLAYWRIGHT_RESTART_DISCONNECTED_BROWSER``). The browser goes through the proxy
Scrapy's own requests go through (:func:`browser_proxy`) and, like Scrapy, does not verify certificates.

A page the browser fails on (a timeout, a crash, a page that navigates away, a browser that cannot start) is
fetched again as served (:class:`RenderingMiddleware`): what the served page holds is kept, never lost to the
browser.

A rendered page is handed over once its scripts have settled (:data:`SETTLE_SCRIPT`: no fetch in flight and the
document unchanged for a moment), which is faster than Playwright's ``networkidle`` (half a second of silence on
every page). An index page whose letters are script handlers has each letter clicked in turn, and the list each
click shows is kept in the page (:data:`EXPAND_LETTERS_SCRIPT`), so the spider reads every letter's journals off
one rendered page.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable
from urllib.parse import unquote, urlsplit

from scrapy.downloadermiddlewares.retry import get_retry_request
from scrapy.exceptions import IgnoreRequest
from scrapy_playwright.page import PageMethod

from journals.downloadermiddlewares.httpcache import RENDERED_HEADER

if TYPE_CHECKING:
    from playwright.async_api import Page
    from playwright.async_api import Request as PlaywrightRequest
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

BLOCKED_RESOURCE_TYPES = frozenset({"image", "font", "media"})
"""Resources a rendered page never fetches: nothing the crawl reads is in them."""
SETTLE_QUIET_MS = 150
"""Milliseconds without a fetch in flight or a change to the document after which a page has settled."""
SETTLE_LIMIT_MS = 10_000
"""Milliseconds a page is given to settle; it is read as it is then, unless a fetch is still in flight."""
FETCH_LIMIT_MS = 30_000
"""Milliseconds a page is given to settle while a fetch is in flight (a busy machine or a slow API): a list still
being fetched is waited for, a page that keeps changing is not."""
RENDERED_EXPANDED_ID = "journals-script-letters"
"""The id of the element a page's script letters' lists are kept in."""

RENDERING_FAILED = "journals_rendering_failed"
INDEX_ROLES = ("index", "listing")
"""Roles of page whose rendering clicks their script letters: the letters of a rendered application (hash routes
such as ``#/journals/B``) are seen only once it is rendered, never in its served shell."""
"""Request meta of a page fetched as served because the browser failed on it: it is not rendered again."""
CONTEXT_OPTIONS = {"ignore_https_errors": True}
"""The browser context's options: certificates are not verified, as Scrapy's own downloader does not verify them
(a caching or replaying proxy that ends TLS itself is reached by both alike)."""

BODY_UNREAD_MS = 2_000
"""Milliseconds a fetch whose body the page never reads counts as in flight after its response came."""
TIMER_MIN_MS = 50
TIMER_MAX_MS = 3_000
"""A timer the page sets for between :data:`TIMER_MIN_MS` and this many milliseconds, within this many
milliseconds of its start or of the crawl's last action on it (a click, a scroll), counts as work in flight until it
fires or is cleared: a panel filled by a fetch a timer starts after load ("metrics 800 ms after load") is waited
for. Shorter timers are ticks the quiet time covers; longer ones, and timers set later (a poll, a carousel), are
the page's life, never waited for."""

WATCH_SCRIPT = (
    """
(() => {
  if (window.__journalsInflight !== undefined) return;
  const setTimeout_ = window.setTimeout.bind(window);
  const clearTimeout_ = window.clearTimeout.bind(window);
  window.__journalsTimeout = setTimeout_;
  window.__journalsInflight = 0;
  window.__journalsChanged = performance.now();
  window.__journalsActed = performance.now();
  const done = () => { window.__journalsInflight--; window.__journalsChanged = performance.now(); };
  const timers = new Set();
  window.setTimeout = function (callback, delay, ...args) {
    const wait = Number(delay) || 0;
    const counted = typeof callback === 'function' && wait >= TIMER_MIN_MS && wait <= TIMER_MAX_MS
      && performance.now() - window.__journalsActed <= TIMER_MAX_MS;
    if (!counted) return setTimeout_(callback, delay, ...args);
    const id = setTimeout_(function (...given) {
      if (timers.delete(id)) done();
      return callback.apply(this, given);
    }, delay, ...args);
    timers.add(id);
    window.__journalsInflight++;
    return id;
  };
  window.clearTimeout = function (id) {
    if (timers.delete(id)) done();
    return clearTimeout_(id);
  };
  const fetch = window.fetch;
  window.fetch = function (...args) {
    window.__journalsInflight++;
    let finished = false;
    const finish = () => { if (!finished) { finished = true; done(); } };
    return fetch.apply(this, args).then(response => {
      for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData']) {
        const read = response[name].bind(response);
        response[name] = () => read().finally(() => setTimeout_(finish, 0));
      }
      setTimeout_(finish, BODY_UNREAD_MS);
      return response;
    }, error => { finish(); throw error; });
  };
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    window.__journalsInflight++;
    this.addEventListener('loadend', done);
    return send.apply(this, args);
  };
  new MutationObserver(() => { window.__journalsChanged = performance.now(); })
    .observe(document, {childList: true, subtree: true, characterData: true});
  window.__journalsGoesNowhere = (element) => {
    if (element.tagName !== 'A') return true;
    const href = (element.getAttribute('href') || '').trim().toLowerCase();
    return href === '' || href.startsWith('#') || href.startsWith('javascript:');
  };
  window.__journalsSettle = async (quiet, limit, fetchLimit, start = performance.now()) => {
    const waiting = () => {
      const spent = performance.now() - start;
      return spent < limit || (window.__journalsInflight > 0 && spent < fetchLimit);
    };
    while (waiting()) {
      const still = performance.now() - Math.max(window.__journalsChanged, window.__journalsActed);
      if (window.__journalsInflight === 0 && still >= quiet) return true;
      await new Promise(resolve => setTimeout_(resolve, 20));
    }
    return false;
  };
})();
""".replace("BODY_UNREAD_MS", str(BODY_UNREAD_MS))
    .replace("TIMER_MIN_MS", str(TIMER_MIN_MS))
    .replace("TIMER_MAX_MS", str(TIMER_MAX_MS))
)
"""Installed before a rendered page's own scripts: counts fetches in flight, notes when the document last changed,
counts the timers it sets soon after its start or the crawl's last action (:data:`TIMER_MAX_MS`) as work in flight,
defines whether a control goes nowhere but runs a script (``__journalsGoesNowhere``: a button, an ``<a>`` with no page
to go to) for the scripts that click, and the one wait for the page to settle (``__journalsSettle``) that
:data:`SETTLE_SCRIPT` and :data:`EXPAND_LETTERS_SCRIPT` call: no fetch or counted timer in flight and the document
unchanged for ``quiet`` ms since it last changed and since the crawl's last action on it (a handler that writes on
a later tick, as a busy page's does, is given the quiet time to start), waited for up to ``limit`` ms, or
``fetchLimit`` ms while a fetch is in flight. A fetch is
in flight until its body is read and the callbacks waiting on it have run (a busy machine may take longer than the quiet
time between a response's headers and the list it is written into), or for :data:`BODY_UNREAD_MS` when its body is never
read."""

SETTLE_SCRIPT = """
async ([quiet, limit, fetchLimit]) => window.__journalsSettle(quiet, limit, fetchLimit)
"""
"""Wait until the page has settled (see :data:`WATCH_SCRIPT`); whether it did within the limit."""

EXPAND_LETTERS_SCRIPT = """
async ([quiet, limit, fetchLimit, keptId, maxPages]) => {
  const shown = location.href;
  const LETTER = /^(?:[A-Z]|0\\s*[-\\u2013]\\s*9|#)$/;
  const pause = () => new Promise(resolve => setTimeout(resolve, 20));
  const settle = async () => {
    const start = performance.now();
    await pause();  // the click's handlers start their fetches
    await window.__journalsSettle(quiet, limit, fetchLimit, start);
  };
  const isHandler = window.__journalsGoesNowhere;
  const controls = [];
  const seen = new Set();
  for (const element of document.querySelectorAll('a, button, [onclick], [role=button]')) {
    const text = (element.textContent || '').replace(/\\s+/g, ' ').trim().toUpperCase();
    if (!LETTER.test(text) || seen.has(text) || !isHandler(element) || !element.getClientRects().length) continue;
    seen.add(text);
    controls.push([text, element]);
  }
  const kept = document.createElement('div');
  kept.id = keptId;
  const PAGE = /^(?:\\d{1,3}|next\\b.*|siguiente\\b.*|suivant\\b.*|weiter\\b.*|[\u203a\u00bb>]+)$/i;
  const click = async (letter, control) => {
    const changed = new Set();
    const observer = new MutationObserver(records => {
      for (const record of records) if (record.addedNodes.length) changed.add(record.target);
    });
    observer.observe(document.body, {childList: true, subtree: true});
    window.__journalsActed = performance.now();
    control.click();
    await settle();
    observer.disconnect();
    const targets = [...changed].filter(t => t.isConnected && ![...changed].some(o => o !== t && o.contains(t)));
    for (const target of targets) {
      if (target === kept || kept.contains(target)) continue;
      const section = document.createElement('section');
      section.setAttribute('data-letter', letter);
      section.innerHTML = target.innerHTML;
      kept.appendChild(section);
    }
    return targets.length > 0;
  };
  const expand = async (letter, control) => {
    if (!await click(letter, control)) return false;
    const seen = new Set();
    for (let pages = 0; pages < maxPages; pages++) {
      const next = [...document.querySelectorAll('a, button')].find(e => {
        const text = (e.textContent || '').replace(/\\s+/g, ' ').trim();
        const key = (e.getAttribute('href') || '') + '|' + text;
        return PAGE.test(text) && isHandler(e) && e.getClientRects().length && !seen.has(key) && !kept.contains(e);
      });
      if (!next) break;
      seen.add((next.getAttribute('href') || '') + '|' + (next.textContent || '').replace(/\\s+/g, ' ').trim());
      await click(letter, next);
    }
    return true;
  };
  const missed = [];
  for (const [letter, control] of controls) {
    if (!await expand(letter, control)) missed.push([letter, control]);
  }
  for (const [letter, control] of missed) await expand(letter, control);
  document.body.appendChild(kept);
  if (location.href !== shown) history.replaceState(history.state, '', shown);
  return controls.length;
}
"""
"""Click every A–Z control of the page that is a script handler (not a link), one after the other, and keep what
each click added, in a ``section`` per letter under one element at the end of the body; within a letter, its page
controls that are script handlers too ("2", "Next ›" as hash routes) are clicked in turn, up to
:data:`PAGES_PER_LETTER`, and what each added is kept with the letter. A letter whose click changed nothing (its
list came after the wait, on a busy machine) is clicked once more at the end. The page's address is put back as it
was (a hash route's click changes it): the page is stored under the URL it was asked for."""
PAGES_PER_LETTER = 50
"""Page controls clicked within one script letter's list, at most."""


GROW_CLICKS = 100
"""Clicks of a "Load more" control, or scrolls to the end of an infinite list, per rendered page, at most: a list
that still grows after them is a trap."""
GROW_TEXT = (
    r"^(?:(?:load|show|view|see|display)\s+(?:more|all)\b|more\s+(?:journals|results|titles)\b|"
    r"(?:cargar|mostrar|ver)\s+m[aá]s\b|(?:afficher|voir)\s+plus\b|mehr\s+(?:laden|anzeigen)\b|"
    r"(?:carregar|mostrar|ver)\s+mais\b|(?:carica|mostra)\s+(?:altr[io]|di\s+pi[uù])\b)"
)
"""Texts of a control that grows a list in place ("Load more journals", "Show all", "Ver más")."""
PLACEHOLDER_TEXT = r"^(?:loading|cargando|chargement|wird geladen|carregando|caricamento)\b.{0,40}$"
"""Texts of an element standing in for content a script has yet to write ("Loading metrics…")."""

OPEN_PANELS = 12
"""Closed tabs and accordion sections a rendered page has opened, at most."""
OPENED_PANELS_ID = "journals-opened-panels"
"""The id of the element that keeps what opening a tab took out of the page (a tab bar shows one panel at a time)."""

ACT_AS_READER_SCRIPT = """
async ([quiet, limit, fetchLimit, maxClicks, growText, placeholderText, maxPanels, keptId]) => {
  const shown = location.href;
  const GROW = new RegExp(growText, 'i');
  const PLACEHOLDER = new RegExp(placeholderText, 'i');
  const visible = (element) => element.getClientRects().length > 0;
  const text = (element) => (element.textContent || '').replace(/\\s+/g, ' ').trim();
  const goesNowhere = window.__journalsGoesNowhere;
  const settle = async () => {
    const start = performance.now();
    await new Promise(resolve => window.__journalsTimeout(resolve, 20));
    await window.__journalsSettle(quiet, limit, fetchLimit, start);
  };
  const frame = () => new Promise(resolve => requestAnimationFrame(() => resolve()));
  const act = async (action, painted = false) => {
    window.__journalsActed = performance.now();
    action();
    if (painted) await Promise.race([frame().then(frame), new Promise(r => window.__journalsTimeout(r, 500))]);
    await settle();
  };
  const placeholders = () => [...document.querySelectorAll('body *')].filter(
    e => e.children.length === 0 && visible(e) && PLACEHOLDER.test(text(e))
  ).length;
  const waitedFrom = performance.now();
  while (placeholders() > 0 && performance.now() - waitedFrom < limit) await settle();

  const kept = document.createElement('div');
  kept.id = keptId;
  const CHROME = 'nav, header, footer, [role=navigation], [role=menu], [role=menubar], [role=banner], '
    + '[role=contentinfo]';
  const closed = () => [...document.querySelectorAll(
    'details:not([open]) > summary, [role=tab]:not([aria-selected=true]), [aria-expanded=false]'
  )].filter(e => {
    const label = text(e);
    if (!label || label.length > 80 || !visible(e) || !goesNowhere(e) || e.hasAttribute('aria-haspopup')) return false;
    return e.getAttribute('role') === 'tab' || e.tagName === 'SUMMARY' || !e.closest(CHROME);
  });
  const tried = new Set();
  const panels = new Set();
  const panelsOf = (control) => {
    const ids = (control.getAttribute('aria-controls') || '').split(/\\s+/).filter(Boolean);
    if (ids.length) return ids.map(id => document.getElementById(id)).filter(Boolean);
    if (control.tagName === 'SUMMARY') return [control.parentElement];
    return control.nextElementSibling ? [control.nextElementSibling] : [];
  };
  let opened = 0;
  for (let control = closed()[0]; control && opened < maxPanels; control = closed().find(e => !tried.has(e))) {
    tried.add(control);
    for (const panel of panelsOf(control)) panels.add(panel);
    const removed = [];
    const observer = new MutationObserver(records => {
      for (const record of records) {
        for (const node of record.removedNodes) if (text(node)) removed.push([record.target, node]);
      }
    });
    observer.observe(document.body, {childList: true, subtree: true});
    await act(() => control.click());
    observer.disconnect();
    opened++;
    for (const [parent, node] of removed) {
      if (node.isConnected) continue;
      const box = document.createElement('div');
      box.setAttribute('data-journals-kept', '');
      box.appendChild(node);
      (parent.isConnected ? parent : kept).appendChild(box);
    }
  }
  for (const panel of panels) {
    if (!panel.isConnected || visible(panel) || !text(panel)) continue;
    const copy = panel.cloneNode(true);
    for (const element of [copy, ...copy.querySelectorAll('*')]) {
      element.removeAttribute('hidden');
      element.removeAttribute('aria-hidden');
      element.removeAttribute('id');
      if (element.style && element.style.display === 'none') element.style.display = '';
    }
    copy.setAttribute('data-journals-kept', '');
    panel.after(copy);
  }
  if (kept.childNodes.length) (document.querySelector('main, [role=main], article') || document.body).appendChild(kept);

  const grower = () => [...document.querySelectorAll('button, a, [role=button]')].find(
    e => visible(e) && GROW.test(text(e)) && goesNowhere(e)
  );
  const links = () => document.querySelectorAll('a[href]').length;
  let clicks = 0;
  let scrolls = 0;
  let grew = false;
  while (clicks + scrolls < maxClicks) {
    const before = links();
    const control = grower();
    if (control) {
      await act(() => control.click());
      clicks++;
    } else {
      await act(() => window.scrollTo(0, document.documentElement.scrollHeight), true);
      scrolls++;
    }
    grew = links() > before;
    // A list that grew on an earlier scroll may take longer to grow again on a busy machine: look twice more.
    for (let look = 1; !grew && !control && scrolls > 1 && look <= 2; look++) {
      await new Promise(resolve => window.__journalsTimeout(resolve, 400 * look));
      await act(() => window.scrollTo(0, document.documentElement.scrollHeight), true);
      grew = links() > before;
    }
    if (!grew) break;
  }
  if (location.href !== shown) history.replaceState(history.state, '', shown);
  return {
    clicks, scrolls: grew ? scrolls : Math.max(scrolls - 1, 0), opened,
    capped: clicks + scrolls >= maxClicks && (grew || !!grower()), placeholders: placeholders(),
  };
}
"""
"""Act on a rendered page as a reader does, after it settled: wait while an element still reads "Loading…" (a
panel a timer fills after load); open its closed tabs and accordion sections (a ``<details>``, a control with
``aria-expanded="false"`` outside the site's menus, a tab), up to :data:`OPEN_PANELS`, keeping what a tab took out of
the page where it was (or at the end of the page's main content) and a copy of each opened panel that another tab
hid again beside it (in elements marked ``data-journals-kept``); then grow its list in place by clicking a control
that does so ("Load more journals", "Show all": a button or a link that goes nowhere) or, without one, by scrolling
to the end
(an infinite list), until a click or a scroll adds no link, or :data:`GROW_CLICKS` actions. The page's
address is put back as it was. Returns the clicks, the scrolls that grew the list, the panels opened, whether the
bound stopped it, and the placeholders left."""


def abort_request(request: PlaywrightRequest) -> bool:
    """``PLAYWRIGHT_ABORT_REQUEST``: whether the browser skips a resource (images, fonts, media)."""
    return request.resource_type in BLOCKED_RESOURCE_TYPES


async def watch_page(page: Page, request: Request) -> None:
    """``playwright_page_init_callback`` of every rendered request: install :data:`WATCH_SCRIPT`."""
    await page.add_init_script(WATCH_SCRIPT)


def rendering_meta(*, expand_letters: bool = False) -> dict[str, Any]:
    """The request meta that renders a page: in the browser, waiting for its scripts to settle and acting as a
    reader (:data:`ACT_AS_READER_SCRIPT`: placeholders waited for, "Load more" clicked), and with
    ``expand_letters`` its script letters clicked and their lists kept."""
    methods = [
        PageMethod("evaluate", SETTLE_SCRIPT, [SETTLE_QUIET_MS, SETTLE_LIMIT_MS, FETCH_LIMIT_MS]),
        PageMethod(
            "evaluate",
            ACT_AS_READER_SCRIPT,
            [
                SETTLE_QUIET_MS,
                SETTLE_LIMIT_MS,
                FETCH_LIMIT_MS,
                GROW_CLICKS,
                GROW_TEXT,
                PLACEHOLDER_TEXT,
                OPEN_PANELS,
                OPENED_PANELS_ID,
            ],
        ),
    ]
    if expand_letters:
        methods.append(
            PageMethod(
                "evaluate",
                EXPAND_LETTERS_SCRIPT,
                [SETTLE_QUIET_MS, SETTLE_LIMIT_MS, FETCH_LIMIT_MS, RENDERED_EXPANDED_ID, PAGES_PER_LETTER],
            )
        )
    return {
        "playwright": True,
        "playwright_context_kwargs": CONTEXT_OPTIONS,
        "playwright_page_init_callback": f"{__name__}.watch_page",
        "playwright_page_methods": methods,
    }


def browser_proxy(proxies: Mapping[str, str]) -> dict[str, str] | None:
    """Playwright's ``proxy`` launch option for the proxies Scrapy's ``HttpProxyMiddleware`` uses
    (``urllib.request.getproxies()``: ``https_proxy``, ``http_proxy``, ``no_proxy``); None without one.

    The browser takes one proxy for every scheme: the https one when both are set (publishers serve https). The
    credentials in a proxy URL (before its ``@``) become Playwright's ``username`` and ``password``;
    ``no_proxy`` becomes its ``bypass`` list.
    """
    url = proxies.get("https") or proxies.get("http")
    if not url:
        return None
    parts = urlsplit(url if "://" in url else f"http://{url}")
    host = parts.hostname or ""
    server = f"{parts.scheme}://{f'[{host}]' if ':' in host else host}" + (f":{parts.port}" if parts.port else "")
    proxy = {"server": server}
    if parts.username:
        proxy["username"] = unquote(parts.username)
        proxy["password"] = unquote(parts.password or "")
    if proxies.get("no"):
        proxy["bypass"] = proxies["no"]
    return proxy


def is_timeout(exception: BaseException) -> bool:
    """Whether ``exception`` says a render took too long: Playwright's ``TimeoutError`` (a navigation, a page
    method) or the handler's ``RENDER_TIMEOUT`` (:class:`TimeoutError`). Told by name, so that this module does not
    import Playwright (Playwright's class is no builtin ``TimeoutError``)."""
    return isinstance(exception, TimeoutError) or type(exception).__name__ == "TimeoutError"


def reader_actions(response: Response) -> dict[str, Any] | None:
    """What :data:`ACT_AS_READER_SCRIPT` did on a page rendered now (clicks, scrolls, opened, capped,
    placeholders), else None."""
    for method in response.meta.get("playwright_page_methods") or ():
        result = getattr(method, "result", None)
        if isinstance(result, dict) and "clicks" in result:
            return result
    return None


def was_rendered(response: Response) -> bool:
    """Whether ``response`` is a page rendered by the browser, fetched now or replayed from the page cache."""
    return "playwright" in response.flags or RENDERED_HEADER in response.headers


@runtime_checkable
class RenderingSpider(Protocol):
    """What :class:`RenderingMiddleware` asks of a spider whose pages it may render (the project's spiders answer
    from their :class:`~journals.downloadermiddlewares.rendering_policy.RenderingPolicy`)."""

    def wants_rendering(self, request: Request) -> bool:
        """Whether ``request``, about to be downloaded, is to be rendered in the browser."""
        ...

    def note_rendering(self, request: Request, *, failed: bool) -> None:
        """Told whether the browser rendered ``request`` or failed on it (it is then fetched as served)."""
        ...


class RenderingMiddleware:
    """``DOWNLOADER_MIDDLEWARES`` entry (before the page cache): renders a request its spider wants rendered.

    The spider learns that a source builds a role of page with scripts from one such page; the requests of that
    role already made (a listing's journals, all requested at once) are rendered as they come to be downloaded,
    not fetched as served first. The spider says which (a :class:`RenderingSpider`); any other spider has rendered
    only what it asked for.
    """

    def __init__(self, crawler: Crawler) -> None:
        """The middleware of ``crawler``."""
        self.crawler = crawler
        self._judged_spider: object = None
        self._rendering_spider: RenderingSpider | None = None

    def _spider(self) -> RenderingSpider | None:
        """The crawl's spider when it is a :class:`RenderingSpider`, else None; judged once per spider (a runtime
        protocol check costs tens of microseconds, and every request asks it)."""
        spider = self.crawler.spider
        if spider is not self._judged_spider:
            self._judged_spider = spider
            self._rendering_spider = spider if isinstance(spider, RenderingSpider) else None
        return self._rendering_spider

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderingMiddleware:
        """The middleware of ``crawler``."""
        return cls(crawler)

    def process_request(self, request: Request, spider: object = None) -> None:
        """Give ``request`` the meta that renders it, when its spider wants it rendered and it is not yet (nor was
        it fetched as served because the browser failed on it); an index or listing page's script letters are
        clicked too."""
        spider = self._spider()
        if spider is None or request.meta.get("playwright"):
            return
        if request.meta.get(RENDERING_FAILED):
            return
        if spider.wants_rendering(request):
            request.meta.update(rendering_meta(expand_letters=request.meta.get("page_role") in INDEX_ROLES))

    def process_response(self, request: Request, response: Response, spider: object = None) -> Response:
        """Tell the spider a rendered request came back (``note_rendering(request, failed=False)``)."""
        if request.meta.get("playwright"):
            self._note(request, failed=False)
        return response

    def process_exception(self, request: Request, exception: Exception, spider: object = None) -> Request | None:
        """A request the browser failed on, to be fetched as served instead (meta :data:`RENDERING_FAILED`); the
        failure is counted and logged. A render that timed out (a busy machine, a slow site) is first tried again
        as Scrapy retries a download (``get_retry_request``: ``RETRY_TIMES``, the ``retry/*`` stats), and is not
        told to the spider; any other failure (the browser cannot start, crashed, the page left) is
        (``note_rendering(request, failed=True)``), which stops rendering a source that keeps failing. None for a
        request that was not rendered, or that was refused (``IgnoreRequest``: out of scope, missing from an offline
        replay), which is no failure of the browser: the other middlewares (retry) and the errback handle it."""
        if not request.meta.get("playwright") or isinstance(exception, IgnoreRequest):
            return None
        reason = (str(exception).strip().splitlines() or [type(exception).__name__])[0]
        timed_out = is_timeout(exception)
        if timed_out and (retry := get_retry_request(request, spider=self.crawler.spider, reason=reason)) is not None:
            return retry
        self.crawler.stats.inc_value("journals/rendering/failed")
        self.crawler.spider.logger.warning("The browser failed on %s (%s): fetching it as served", request, reason)
        if not timed_out:
            self._note(request, failed=True)
        meta = {key: value for key, value in request.meta.items() if not key.lstrip("_").startswith("playwright")}
        meta[RENDERING_FAILED] = True
        return request.replace(meta=meta, dont_filter=True)

    def _note(self, request: Request, *, failed: bool) -> None:
        if (spider := self._spider()) is not None:
            spider.note_rendering(request, failed=failed)
