"""The paper's Figure 5: precision, recall and F1 per site and attribute as bar charts (needs matplotlib)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import BinaryIO

from journals.extraction.evaluation import Report

SERIES = (("Precision", "precision"), ("Recall", "recall"), ("F-Measure", "f1"))
PANELS_PER_ROW = 3


def plot_report(report: Report, path: str | Path | BinaryIO) -> None:
    """Draw ``report`` into the PNG ``path`` (a file name or a binary file object): one panel per site, grouped
    bars (precision, recall, F1) per attribute, so that a site's weak attributes stand out as in the paper."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sites = [site for site, score in report.sites.items() if score.cells] or [""]
    columns = min(PANELS_PER_ROW, len(sites))
    rows = math.ceil(len(sites) / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 3.4 * rows), squeeze=False, sharey=True)
    width = 0.28
    for panel, site in zip(axes.flat, sites, strict=False):
        cells = report.sites[site].cells if site else {}
        names = list(cells)
        for offset, (series, measure) in enumerate(SERIES):
            positions = [i + (offset - 1) * width for i in range(len(names))]
            panel.bar(positions, [getattr(cells[name], measure) for name in names], width, label=series)
        panel.set_xticks(range(len(names)), names, rotation=40, ha="right", fontsize=7)
        panel.set_ylim(0, 1.05)
        panel.set_title(site, fontsize=10)
    for panel in axes.flat[len(sites) :]:
        panel.axis("off")
    for row in axes:
        row[0].set_ylabel("score")
    axes[0][0].legend(loc="lower left", fontsize=7)
    figure.suptitle(f"Extraction per site and attribute (macro F1 {report.macro_f1:.3f})")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
