"""Bear-off table lookups: a C API only (see _bearoff_tables.pxd)."""
