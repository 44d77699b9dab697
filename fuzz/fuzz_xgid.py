"""Fuzz target: see parser_checks.check_xgid for the contract it asserts."""

from _runner import run

if __name__ == "__main__":
    run("xgid")
