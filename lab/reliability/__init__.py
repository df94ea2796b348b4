"""Reliability scenarios of issue 8: kills, database outages, a full or read-only disk, and a hostile web."""
