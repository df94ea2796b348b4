"""No exception escapes the pure code on any input, and each call stays within its deadline.

The inputs and targets are those of ``python -m lab.fuzz`` (``make fuzz`` runs them at scale); here a few
examples per target keep ``make test`` fast.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from lab.fuzz import targets

TARGETS = targets(max_size=2000)
FEW = {"max_examples": 30, "database": None, "suppress_health_check": [HealthCheck.too_slow]}


@settings(deadline=TARGETS["tag_tree"].deadline_ms, **FEW)
@given(TARGETS["tag_tree"].inputs)
def test_tag_tree(page):
    TARGETS["tag_tree"].run(page)


@settings(deadline=TARGETS["mdr"].deadline_ms, **FEW)
@given(TARGETS["mdr"].inputs)
def test_mdr(page):
    TARGETS["mdr"].run(page)


@settings(deadline=TARGETS["navigation"].deadline_ms, **FEW)
@given(TARGETS["navigation"].inputs)
def test_navigation(page):
    TARGETS["navigation"].run(page)


@settings(deadline=TARGETS["extraction"].deadline_ms, **FEW)
@given(TARGETS["extraction"].inputs)
def test_extraction_heuristics(page):
    TARGETS["extraction"].run(page)


@settings(deadline=TARGETS["parsers"].deadline_ms, **{**FEW, "max_examples": 300})
@given(TARGETS["parsers"].inputs)
def test_value_parsers(text):
    TARGETS["parsers"].run(text)


@settings(deadline=TARGETS["decoding"].deadline_ms, **FEW)
@given(TARGETS["decoding"].inputs)
def test_decoding(body):
    TARGETS["decoding"].run(body)


@settings(deadline=TARGETS["linkage"].deadline_ms, **FEW)
@given(TARGETS["linkage"].inputs)
def test_record_linkage(titles):
    TARGETS["linkage"].run(titles)
