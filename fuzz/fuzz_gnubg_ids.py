"""Fuzz target: see parser_checks.check_gnubg_ids for the contract it asserts."""

from _runner import run

if __name__ == "__main__":
    run("gnubg_ids")
