"""Scrapy extensions: crawl progress per publisher, and the crawl's health check as it closes."""
