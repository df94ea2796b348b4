"""The domain's rules, each in one home: ISSNs, figures, the words for "no value", the list of sites.

Pure modules: they import neither Scrapy nor the database, and every other package reads its rule from here.
"""
