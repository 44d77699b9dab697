"""``python -m bgengine``: the same as the ``bgengine`` command."""

from .cli import main

main()
