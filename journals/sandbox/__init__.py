"""The sandbox publisher web: a deterministic stand-in for the real publishers' sites, served on 127.0.0.1.

``relation`` draws the hidden table of journals; ``sources`` applies the generative model of the integration
paper (selection, projection, error) per site; ``templates`` encodes each site's pages as HTML, and ``registry``
names each site's templates; ``web`` routes a path to a page; ``server`` serves it over HTTP; ``truth`` writes what
a perfect crawl would find.
"""
