"""Runs one check of ``parser_checks`` under atheris (coverage-guided, libFuzzer's options)."""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["bgengine", "parser_checks"]):
    import parser_checks


def run(target: str) -> None:
    """Fuzz ``parser_checks.CHECKS[target]`` with the command line's libFuzzer options and corpus."""
    atheris.Setup(sys.argv, parser_checks.CHECKS[target])
    atheris.Fuzz()
