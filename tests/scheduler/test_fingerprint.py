"""Fingerprints that tell a hash router's views apart (journals.scheduler.fingerprint)."""

from __future__ import annotations

from scrapy import Request
from scrapy.utils.request import RequestFingerprinter

from journals.scheduler.fingerprint import RouteFingerprinter


def test_two_routes_of_one_shell_are_two_requests_and_two_places_in_a_page_are_one() -> None:
    ours = RouteFingerprinter()
    acta = ours.fingerprint(Request("http://h.example/app/#!/journal/acta"))
    bmj = ours.fingerprint(Request("http://h.example/app/#!/journal/bmj"))
    assert acta != bmj
    assert ours.fingerprint(Request("http://h.example/app/#top")) == ours.fingerprint(Request("http://h.example/app/"))


def test_a_request_without_a_route_has_scrapys_own_fingerprint() -> None:
    for url in ("http://h.example/a?b=2&a=1", "http://h.example/a#section"):
        assert RouteFingerprinter().fingerprint(Request(url)) == RequestFingerprinter().fingerprint(Request(url))
