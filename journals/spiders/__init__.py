"""Spiders: the generic A–Z ``publisher`` spider and one thin subclass per real publisher."""
