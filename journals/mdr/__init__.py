"""MDR, mining data records in web pages (Liu, Grossman, Zhai, KDD 2003): pure code on lxml and rapidfuzz."""

from journals.mdr.mining import (
    DEFAULT_MAX_NODE_LENGTH,
    DEFAULT_MAX_NODES,
    DEFAULT_THRESHOLD,
    DataRecord,
    DataRegion,
    mine_data_regions,
)

__all__ = [
    "DEFAULT_MAX_NODES",
    "DEFAULT_MAX_NODE_LENGTH",
    "DEFAULT_THRESHOLD",
    "DataRecord",
    "DataRegion",
    "mine_data_regions",
]
