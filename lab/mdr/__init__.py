"""MDR data-record mining: its speed (``bench``) and its record-level figures (``evaluation``, ``make eval-mdr``)."""
