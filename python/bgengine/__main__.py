"""``python -m bgengine``: the same as the ``bgengine`` command."""

from bgengine.cli.commands import main

main()
