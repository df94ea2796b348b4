"""Speed of the extraction heuristics and template learning (``lab.benchmarks``)."""
