"""The report's pictures as base64 PNGs: metric distributions per source, and the quality chart (Figure 5)."""

from __future__ import annotations

import base64
import io
from typing import Any

from journals.extraction.evaluation import Report


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=90)
    _pyplot().close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def distribution_png(metric: str, values_by_source: dict[str, list[float]]) -> str:
    """A box plot of one metric's values, one box per source, as base64 PNG."""
    plt = _pyplot()
    sources = sorted(values_by_source)
    # Wider with more sources, the labels slanted: a dozen source names side by side overlap.
    figure, axes = plt.subplots(figsize=(max(7.0, 0.8 * len(sources)), 3.6))
    axes.boxplot([values_by_source[s] for s in sources], showfliers=True)
    labels = [f"{s} (n={len(values_by_source[s])})" for s in sources]
    axes.set_xticks(range(1, len(sources) + 1), labels, rotation=30, ha="right", fontsize="small")
    axes.set_ylabel(metric.replace("_", " "))
    axes.set_title(f"{metric.replace('_', ' ').capitalize()} per source")
    axes.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return _png(figure)


def yearly_png(metric: str, series: dict[str, dict[int, float]]) -> str:
    """One line per journal of a metric's figure by year (journal label → year → value), as base64 PNG."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(7.0, 3.6))
    for label, years in series.items():
        ordered = sorted(years)
        axes.plot(ordered, [years[year] for year in ordered], marker="o", label=label)
    axes.set_xlabel("year")
    axes.set_ylabel(metric)
    axes.xaxis.get_major_locator().set_params(integer=True)
    axes.set_title(f"{metric.capitalize()} by year")
    axes.grid(alpha=0.3)
    axes.legend(fontsize="x-small", loc="center left", bbox_to_anchor=(1.0, 0.5))
    figure.tight_layout()
    return _png(figure)


def quality_png(report: Report) -> str:
    """The evaluation's precision, recall and F1 per site and attribute (the paper's Figure 5), as base64 PNG."""
    from journals.extraction.plot import plot_report

    buffer = io.BytesIO()
    plot_report(report, buffer)
    return base64.b64encode(buffer.getvalue()).decode("ascii")
