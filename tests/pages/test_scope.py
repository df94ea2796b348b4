"""Scope: origins, canonical URLs, sister sites and private addresses, as pure functions."""

from __future__ import annotations

import pytest

from journals.pages.scope import (
    Origin,
    SiteScope,
    ascii_host,
    canonical_url,
    is_ip_address,
    is_private_address,
    listing_url,
    may_be_sister_site,
    redact_url,
    route_of,
)


def test_session_and_tracking_parameters_are_dropped_and_the_query_sorted() -> None:
    assert (
        canonical_url("http://x.org/j/a;jsessionid=AB12?z=1&sid=9&utm_source=m&a=2#top") == "http://x.org/j/a?a=2&z=1"
    )
    assert canonical_url("http://x.org/j/a;jsessionid=1/b;v=2?PHPSESSID=3") == "http://x.org/j/a/b;v=2"
    assert canonical_url("http://x.org/list?page=2&letter=A") == "http://x.org/list?letter=A&page=2"
    assert canonical_url("http://x.org/list?page=2&letter=A") == canonical_url("http://x.org/list?letter=A&page=2")


def test_user_info_is_dropped_from_the_url_the_crawl_requests() -> None:
    assert canonical_url("http://user:pa55@x.org:8080/j/a?b=1") == "http://x.org:8080/j/a?b=1"
    assert canonical_url("https://token@x.org/j/a") == "https://x.org/j/a"
    assert canonical_url("http://x.org/j/a@b") == "http://x.org/j/a@b"


def test_a_password_is_redacted_where_a_url_is_shown() -> None:
    assert redact_url("http://user:pa55@x.org/j") == "http://user:***@x.org/j"
    assert redact_url("http://x.org/j?mail=a@b.org") == "http://x.org/j?mail=a@b.org"
    assert redact_url("http://user@x.org/j") == "http://user@x.org/j"


def test_hosts_compare_in_their_ascii_form() -> None:
    assert ascii_host("Bücher.Example.") == "xn--bcher-kva.example"
    assert ascii_host("www.example.org") == "example.org"
    scope = SiteScope(["http://bücher.example/zeitschriften/"])
    assert scope.allows("http://xn--bcher-kva.example/z/1")
    assert canonical_url("http://bücher.example/a") == "http://xn--bcher-kva.example/a"


def test_a_site_on_default_ports_is_one_site_over_http_and_https_and_nothing_else() -> None:
    scope = SiteScope(["https://www.publisher.org/journals"])
    assert scope.allows("http://publisher.org/j/1")
    assert scope.allows("https://www.publisher.org:443/j/1")
    assert not scope.allows("https://publisher.org:8443/j/1"), "another port of the host is another service"
    assert not scope.allows("http://publisher.org.evil.example/j/1")
    assert not scope.allows("ftp://publisher.org/j/1")
    assert not scope.allows("https://publisher.org:99999/")


def test_a_site_on_another_port_is_that_scheme_and_port_only() -> None:
    scope = SiteScope(["http://127.0.0.1:8000/elsevier/"])
    assert scope.allows("http://127.0.0.1:8000/wiley/j/1")
    assert not scope.allows("http://127.0.0.1:8001/j/1")
    assert not scope.allows("https://127.0.0.1:8000/j/1")
    assert not scope.allows("http://localhost:8000/j/1"), "another name for the machine is another site"


def test_extra_hosts_are_in_scope_on_default_ports() -> None:
    scope = SiteScope(["https://www.elsevier.com/journals"], ["www.sciencedirect.com"])
    assert scope.allows("https://sciencedirect.com/journal/x")
    assert not scope.allows("https://sciencedirect.com:8080/journal/x")


def test_sister_sites_are_named_hosts_on_default_ports() -> None:
    assert may_be_sister_site("https://www.scitechnol.com/journal-x.php")
    assert may_be_sister_site("http://raredisorders.imedpub.com/")
    for url in (
        "http://169.254.169.254/latest/meta-data/",
        "http://127.0.0.1:6379/",
        "http://localhost/admin",
        "http://intranet/",
        "http://publisher.example:8080/j",
        "http://[::1]/",
    ):
        assert not may_be_sister_site(url), url


@pytest.mark.parametrize(
    ("address", "private"),
    [
        ("127.0.0.1", True),
        ("10.1.2.3", True),
        ("172.16.0.1", True),
        ("192.168.1.1", True),
        ("169.254.169.254", True),
        ("100.64.0.1", True),
        ("0.0.0.0", True),
        ("::1", True),
        ("fe80::1", True),
        ("fd00::1", True),
        ("::ffff:127.0.0.1", True),
        ("224.0.0.1", True),
        ("93.184.216.34", False),
        ("2606:2800:220:1::1", False),
    ],
)
def test_private_addresses(address: str, private: bool) -> None:
    assert is_private_address(address) is private


def test_the_remembered_address_checks_answer_each_time_as_the_first() -> None:
    for _ in range(2):
        assert is_ip_address("[::1]") and is_ip_address("10.0.0.1")
        assert not is_ip_address("example.org")
        assert is_private_address("10.0.0.1") and not is_private_address("93.184.216.34")
        with pytest.raises(ValueError, match=r"example\.org"):
            is_private_address("example.org")


def test_origin_of_a_url() -> None:
    assert str(Origin.of("HTTPS://WWW.Example.org/a")) == "https://example.org:443"
    assert Origin.of("javascript:void(0)") is None
    assert Origin.of("http://x.org:0x50/") is None


def test_a_list_shown_another_size_or_order_is_the_same_listing() -> None:
    assert listing_url("https://p.example/journals?page=2&per_page=50&sort=title") == "https://p.example/journals?page=2"
    assert listing_url("https://p.example/journals?letter=b&limit=100") == "https://p.example/journals?letter=b"
    assert listing_url("https://p.example/journals/b") == "https://p.example/journals/b"


def test_a_route_fragment_stays_in_the_canonical_url_and_a_place_in_the_page_does_not() -> None:
    assert canonical_url("http://h.example/app/?b=1&a=2#!/journal/acta") == "http://h.example/app/?a=2&b=1#!/journal/acta"
    assert canonical_url("http://h.example/app/#/journals/B/2") == "http://h.example/app/#/journals/B/2"
    assert canonical_url("http://h.example/app/#top") == "http://h.example/app/"
    assert route_of("http://h.example/app/#!/journal/acta") == "#!/journal/acta"
    assert route_of("http://h.example/app/#section-2") == ""
