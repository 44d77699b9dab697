"""The ``bgengine`` command line: commands, the report builder, terminal output, play, quick bench."""

from bgengine.cli.commands import main

__all__ = ["main"]
