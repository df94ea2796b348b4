"""``scrapy sandbox --replay``: the saved pages behind a forward proxy, run as a user would."""

from __future__ import annotations

import json
import signal
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FRAGMENT = "<table class='journaltable'><tr><td><a href='/journal/ai'>AI</a></td></tr></table>"


def _saved_pages(folder: Path) -> Path:
    (folder / "pages").mkdir(parents=True)
    (folder / "pages" / "list.html").write_text(FRAGMENT, encoding="utf-8")
    entry = {"file": "pages/list.html", "kind": "list", "url": "https://www.mdpi.com/about/journals"}
    (folder / "manifest.json").write_text(json.dumps([entry]), encoding="utf-8")
    return folder


def _opener(proxy_url: str) -> urllib.request.OpenerDirector:
    """urllib through the proxy; its self-signed certificate accepted, as Scrapy does by default."""
    insecure = ssl.create_default_context()
    insecure.check_hostname = False
    insecure.verify_mode = ssl.CERT_NONE
    return urllib.request.build_opener(
        urllib.request.ProxyHandler({"http": proxy_url, "https": proxy_url}),
        urllib.request.HTTPSHandler(context=insecure),
    )


def test_replay_serves_saved_pages_and_logs_every_request(tmp_path):
    data = _saved_pages(tmp_path / "real")
    url_file, log = tmp_path / "proxy.url", tmp_path / "requests.log"
    server = subprocess.Popen(
        [str(PROJECT_ROOT / ".venv" / "bin" / "scrapy"), "sandbox", "--replay", str(data), "--port", "0",
         "--url-file", str(url_file), "--requests-log", str(log)],
        cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        for _ in range(100):
            if url_file.exists() and url_file.read_text().strip():
                break
            time.sleep(0.1)
        proxy_url = url_file.read_text().strip()
        assert proxy_url.startswith("http://127.0.0.1:")
        opener = _opener(proxy_url)
        with opener.open("https://www.mdpi.com/about/journals", timeout=10) as response:
            assert response.read().decode() == FRAGMENT
            assert response.headers["Content-Type"] == "text/html; charset=utf-8"
        with opener.open("http://www.mdpi.com/about/journals/", timeout=10) as response:
            assert response.read().decode() == FRAGMENT
        with opener.open("https://www.mdpi.com/journal/ai", timeout=10) as response:
            assert "<h1>ai</h1>" in response.read().decode()
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=10)
    assert server.returncode == 0, err
    assert f"Replay proxy on {proxy_url} (1 saved pages)" in out
    assert log.read_text().splitlines() == [
        "https://www.mdpi.com/about/journals",
        "http://www.mdpi.com/about/journals/",
        "https://www.mdpi.com/journal/ai",
    ]


def test_missing_manifest_is_a_usage_error(tmp_path):
    result = subprocess.run(
        [str(PROJECT_ROOT / ".venv" / "bin" / "scrapy"), "sandbox", "--replay", str(tmp_path), "--port", "0"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert "cannot read the saved pages" in result.stderr
    assert "Traceback" not in result.stderr
