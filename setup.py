"""What ``scrapyd-deploy`` builds the egg with (``python setup.py bdist_egg``): everything else is in pyproject.toml.

The egg holds the ``journals`` and ``settings`` packages with ``settings/*.json`` (read with ``pkgutil.get_data``)
and the ``scrapy`` entry point naming the settings module scrapyd runs jobs with (``settings.production``); the
top-level ``lab`` stays out.
"""

from setuptools import setup

setup()
