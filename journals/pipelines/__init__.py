"""Item pipelines: extraction turns fetched pages into journal items, the store writes them as rows."""
