"""Datasette plugins of ``scrapy browse``, loaded from this folder (``datasette serve --plugins-dir``); Datasette
loads every module here, this one included, which holds nothing but this docstring."""
