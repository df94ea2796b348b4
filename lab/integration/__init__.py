"""Speed of linkage, mapping and fusion on generated sources (``lab.benchmarks``)."""
