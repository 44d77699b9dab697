"""``bgengine serve``: an HTTP API and a web page over the same analysis as the command line.

The area sits above ``bgengine.cli`` and reuses its report builders, so every JSON answer
has the shape of the matching ``--json`` document (schema ``bgengine.cli/2``). Importing
this package is cheap: the web framework is imported only by ``bgengine.service.app``.
"""
