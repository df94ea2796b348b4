"""The outside listener counts every request it gets; the traps world counts requests under another host name as
outside too. Real HTTP on free ports of 127.0.0.1."""

from __future__ import annotations

import http.client
import urllib.request
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from journals.sandbox.outside import TrapsWorld


@pytest.fixture(scope="module")
def world() -> Iterator[TrapsWorld]:
    running = TrapsWorld.start(seed=1)
    yield running
    running.close()


def fetch(url: str, host: str | None = None) -> tuple[int, str]:
    """GET ``url`` without following redirects, optionally with another ``Host`` header."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                           headers={"Host": host} if host else {})  # fmt: skip
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def test_outside_listener_answers_anything_like_a_site_and_counts_it(world: TrapsWorld) -> None:
    outside = world.outside.base_url
    assert outside != world.base_url and outside.startswith("http://127.0.0.1:")
    assert world.web.outside_url == outside
    before, off_host = world.outside.request_count, len(world.off_host_requests())
    assert fetch(outside + "/robots.txt") == (200, "User-agent: *\nDisallow:\n")
    status, listing = fetch(outside + "/journals/b")
    assert status == 200 and listing.count('class="c-card"') == 3 and 'href="/journal/outside-b-1"' in listing
    status, journal = fetch(outside + "/journal/annals-of-optics-series-a-outside")
    assert status == 200 and "<h1>Annals Of Optics Series A Outside</h1>" in journal
    assert 'href="/journal/annals-of-optics-series-a-outside/metrics"' in journal
    assert fetch(outside + "/journal/annals-of-optics-series-a-outside/metrics")[0] == 200
    assert world.outside.request_count == before + 4
    assert world.outside_requests() == before + 4 + off_host


def test_requests_under_another_host_name_count_as_outside(world: TrapsWorld) -> None:
    before, listener = world.outside_requests(), world.outside.request_count
    assert fetch(world.base_url + "/escape/")[0] == 200
    assert world.outside_requests() == before
    port = urlsplit(world.base_url).port
    assert fetch(world.base_url + "/escape/", host=f"localhost:{port}")[0] == 200
    assert fetch(world.base_url + "/robots.txt", host=f"[::1]:{port}")[0] == 200
    assert [(r.host, r.path) for r in world.off_host_requests()][-2:] == [
        (f"localhost:{port}", "/escape/"),
        (f"[::1]:{port}", "/robots.txt"),
    ]
    assert world.outside_requests() == before + 2 and world.outside.request_count == listener


def test_start_urls_name_each_trap_site(world: TrapsWorld) -> None:
    assert world.start_urls(["escape", "calendar"]) == f"{world.base_url}/escape/,{world.base_url}/calendar/"
    for start_url in world.start_urls().split(","):
        with urllib.request.urlopen(start_url, timeout=10) as response:
            assert response.status == 200


def test_a_busy_port_is_an_os_error_and_a_bound_world_closes_without_serving(world: TrapsWorld) -> None:
    with pytest.raises(OSError):
        TrapsWorld.bind(seed=1, port=urlsplit(world.base_url).port or 0)
    unused = TrapsWorld.bind(seed=1)
    unused.close()
    with pytest.raises(OSError):
        fetch(unused.base_url + "/")
