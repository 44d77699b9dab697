"""Fuzz target: see parser_checks.check_user_input for the contract it asserts."""

from _runner import run

if __name__ == "__main__":
    run("user_input")
