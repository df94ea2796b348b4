"""Where a label's value sits: same text node, next cell, child, dt/dd, th/td, before the label; decoys left out."""

from __future__ import annotations

import pytest

from journals.extraction import LearnedRules
from journals.extraction.extract import learn_page
from journals.pages.parsed import parse_html


def _found(body: str, role: str = "home") -> dict[str, object]:
    root = parse_html(f"<html><body>{body}</body></html>")
    assert root is not None
    return {name: parsed.value for name, (parsed, _) in learn_page(root, role).items()}


@pytest.mark.parametrize(
    "body",
    [
        "<main><dl><dt>Impact Factor</dt><dd>4.117</dd></dl></main>",
        "<main><table><tr><th>Impact Factor</th><td>4.117</td></tr></table></main>",
        "<main><table><tr><td>Impact Factor</td><td>4.117</td></tr></table></main>",
        "<main><p>Impact Factor: <span>4.117</span></p></main>",
        "<main><p>Impact Factor (2024): 4.117</p></main>",
        "<main><p>The journal's 2024 Impact Factor is 4.117.</p></main>",
        "<main><div><strong>4.117</strong> Impact factor</div><div><strong>1.5</strong> CiteScore</div></main>",
        "<main><ul><li><span>4,117 (2024)</span> <span>2-year impact factor</span></li></ul></main>",
    ],
)
def test_impact_factor_wherever_it_sits(body: str) -> None:
    assert _found(body)["impact_factor"] == pytest.approx(4.117)


def test_two_issns_in_one_text_node() -> None:
    found = _found("<main><p>Print ISSN: 3372-1653 | Online ISSN: 7877-9537</p></main>")
    assert found["issn"] == "3372-1653"
    assert found["eissn"] == "7877-9537"


def test_values_before_bracketed_qualifiers() -> None:
    found = _found("<main><p>ISSN 3329-4593 (print); 6822-379X (online)</p></main>")
    assert (found["issn"], found["eissn"]) == ("3329-4593", "6822-379X")
    assert "issn" not in _found("<main><p>ISSN 6822-379X (online)</p></main>")


def test_a_plain_issn_label_before_two_issns() -> None:
    found = _found("<main><table><tr><td>ISSN</td><td>33721653, 78779537</td></tr></table></main>")
    assert (found["issn"], found["eissn"]) == ("3372-1653", "7877-9537")


def test_decoys_are_left_out() -> None:
    body = (
        "<!-- Impact Factor 12.345 --><script>var x={'Impact Factor': 99.9}</script>"
        "<main><h1>Real Journal</h1><p>ISSN: n/a</p></main>"
        "<aside><p>Impact Factor: 6.246</p><p>ISSN: 2725-9188</p></aside>"
        "<footer>Impact Factor: 1.000</footer>"
    )
    found = _found(body)
    assert "impact_factor" not in found
    assert found["issn"] is None
    assert found["title"] == "Real Journal"


def test_a_teaser_box_beside_the_content_is_left_out() -> None:
    body = (
        "<div id='w'><div class='c'><div class='m'><h1>Real Journal</h1></div><p>Editor-in-chief: Ada Li</p></div>"
        "<div class='box'><h4>More</h4><a href='/j/other'>Other Journal Letters</a><div>Impact factor 4.5</div>"
        "<div>ISSN 2725-9188</div></div></div>"
    )
    found = _found(body)
    assert found == {"title": "Real Journal", "editor_in_chief": "Ada Li"}


def test_a_missing_value_is_not_taken_from_the_previous_row() -> None:
    body = (
        "<main><table><tr><td>ISSN (print)</td><td>3372-1653</td></tr>"
        "<tr><td>ISSN (online)</td><td>—</td></tr></table></main>"
    )
    found = _found(body)
    assert found["issn"] == "3372-1653"
    assert found["eissn"] is None


def test_title_only_on_home_pages() -> None:
    assert "title" not in _found("<main><h1>About X</h1></main>", role="metrics")


def test_hostile_pages_do_not_break_learning() -> None:
    deep = "<div>" * 2000 + "Impact Factor: 1.5" + "</div>" * 2000
    wide = "<ul>" + "<li>x</li>" * 20000 + "</ul>"
    for body in (deep, wide, "\x00\ufffd<p>ISSN: 0941-0325", ""):
        root = parse_html(f"<html><body><main>{body}</main></body></html>")
        if root is not None:
            learn_page(root, "home")
    assert LearnedRules().templates == {}


@pytest.mark.parametrize(
    "field",
    [
        "<dd></dd>",
        "<dd> </dd>",
        "",
        "<dd><span></span></dd>",
    ],
)
def test_a_label_is_never_the_value_of_an_empty_field_before_it(field: str) -> None:
    body = (
        "<main><dl><dt>ISSN</dt><dd>2050-084X</dd><dt>Publisher</dt>"
        f"{field}<dt>Editor-in-Chief</dt><dd>Vera Quinn</dd></dl></main>"
    )
    found = _found(body)
    assert "publisher" not in found
    assert found["editor_in_chief"] == "Vera Quinn" and found["issn"] == "2050-084X"


def test_an_odd_value_under_a_label_is_its_value_not_the_next_label() -> None:
    body = (
        "<main><dl><dt>Publisher</dt><dd>' OR '1'='1</dd><dt>Editor-in-Chief</dt><dd>Vera Quinn</dd></dl></main>"
    )
    assert _found(body)["publisher"] == "' OR '1'='1"
