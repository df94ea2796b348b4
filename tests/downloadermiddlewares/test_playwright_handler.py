"""The crawl's download handler imports Playwright only when a page is rendered (rendering itself is tested in
test_rendering.py, through this handler)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import PROJECT_ROOT


def test_loading_the_handler_and_the_rendering_middleware_imports_no_playwright():
    """What Scrapy imports when a crawl starts (every download handler's module, every middleware) leaves
    scrapy-playwright's handler and Playwright unimported."""
    code = (
        "import sys\n"
        "import journals.downloadermiddlewares.playwright_handler, journals.downloadermiddlewares.rendering\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(('playwright', 'scrapy_playwright.handler')))\n"
        "print(','.join(loaded))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == ""
