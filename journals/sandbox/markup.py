"""Small HTML-writing helpers shared by the sandbox's site templates."""

from __future__ import annotations

from html import escape

SCRIPT_NOISE = (
    '<script>window.dataLayer=window.dataLayer||[];dataLayer.push({"impactFactor":"99.999",'
    '"issn":"0000-0000"});</script>'
)
STYLE_NOISE = "<style>.metric{font-weight:bold}.ad{display:none}</style>"


def number(value: float | None, decimals: int = 3, comma: bool = False) -> str:
    """A metric as a site writes it: fixed decimals, optionally a decimal comma."""
    if value is None:
        return "n/a"
    text = f"{value:.{decimals}f}"
    return text.replace(".", ",") if comma else text


def link(href: str, text: str, css: str = "") -> str:
    """An anchor with escaped text and attributes."""
    cls = f' class="{css}"' if css else ""
    return f'<a href="{escape(href)}"{cls}>{escape(text)}</a>'


def page(title: str, body: str, lang: str = "en", head: str = "") -> str:
    """A whole HTML document with the noise real pages carry (scripts, styles, comments)."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title>{STYLE_NOISE}{head}{SCRIPT_NOISE}</head>\n"
        f"<body>\n<!-- build 4711: Impact Factor 12.345 (cached) -->\n{body}\n</body></html>\n"
    )
