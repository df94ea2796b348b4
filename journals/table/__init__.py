"""The journals table, pure: its columns, its stable keys, its typed rows and its changes through time."""
