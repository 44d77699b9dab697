"""Fuzz target: see parser_checks.check_sgf for the contract it asserts."""

from _runner import run

if __name__ == "__main__":
    run("sgf")
