"""``python -m bgengine`` and the ``bgengine`` console script: the CLI's commands plus ``serve``.

``serve`` lives in ``bgengine.service``, the area above the CLI, so it joins the group here,
at the package's top, where every area may be imported.
"""

from bgengine.cli.commands import cli
from bgengine.service.command import serve

cli.add_command(serve)


def main() -> None:
    """Entry point of the ``bgengine`` console script."""
    cli(prog_name="bgengine")


if __name__ == "__main__":
    main()
