"""The paper's Figure 5: precision, recall and F1 per site and attribute as a bar chart (needs matplotlib)."""

from __future__ import annotations

from pathlib import Path

from journals.extraction.evaluation import Report


def plot_report(report: Report, path: str | Path) -> None:
    """Draw ``report`` as grouped bars (precision, recall, F1 per site and attribute) into the PNG ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report.rows()
    labels = [f"{site}\n{name}" for site, name, *_ in rows]
    width = 0.28
    figure, axes = plt.subplots(figsize=(max(8.0, 0.45 * len(rows)), 4.5))
    for offset, (series, column) in enumerate((("Precision", 2), ("Recall", 3), ("F-Measure", 4))):
        positions = [i + (offset - 1) * width for i in range(len(rows))]
        axes.bar(positions, [row[column] for row in rows], width, label=series)
    axes.set_xticks(range(len(rows)), labels, rotation=90, fontsize=6)
    axes.set_ylim(0, 1.05)
    axes.set_ylabel("score")
    axes.set_title(f"Extraction per site and attribute (macro F1 {report.macro_f1:.3f})")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
