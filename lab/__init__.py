"""The lab: benchmarks, fuzzing, the reliability harness, crawl runners and evaluation harnesses.

Run from the repository root (``python -m lab.benchmarks``, ``python -m lab.fuzz``, ``python -m lab.reliability``,
``python -m lab.mdr.evaluation``, ``python -m lab.replay.evaluation``, ``python -m lab.integration.simulation``); the
Makefile's ``bench``, ``fuzz``, ``reliability``, ``eval-mdr`` and ``eval-real`` targets do. It measures the
``journals`` package and is not part of it: the scrapyd egg holds ``journals`` and ``settings`` only, and no module
of ``journals`` imports ``lab`` (tests/test_packaging.py and tests/test_imports.py check both).
"""
