"""Analysis of whole recorded matches: every checker play, cube decision and roll rated (docs/analysis.md)."""
