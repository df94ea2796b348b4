"""The real saved pages replayed under their original URLs and scored (``make eval-real``)."""
