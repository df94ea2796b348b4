"""Speed of the database writer (``lab.benchmarks``)."""
