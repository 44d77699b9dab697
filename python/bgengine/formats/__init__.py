"""Notation and files: XGID, GNU Backgammon IDs, .mat, the text board, SVG pictures, what users type."""
