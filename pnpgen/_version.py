"""Name the version pnpgen is, for build records and cache keys (a leaf: importing it imports nothing)."""
__version__ = "0.1.0"
