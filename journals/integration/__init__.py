"""Integration of overlapping sources (WEIR): record linkage, instance-based attribute matching, truth discovery.

Pure code: no Scrapy, no database. :func:`journals.integration.integrator.integrate` runs the whole method on
plain records and physical attributes; ``scrapy integrate`` feeds it from the database.
"""
