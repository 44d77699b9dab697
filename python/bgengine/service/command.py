"""The ``bgengine serve`` command. It joins the CLI's group in ``bgengine.__main__``, the
package's top, because the CLI sits below this area and never imports it."""

from __future__ import annotations

import ipaddress

import click

from bgengine.service.settings import DEFAULT_HOST, DEFAULT_PORT, ServiceSettings


def is_loopback(host: str) -> bool:
    """True for addresses only this machine reaches (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command(short_help="Serve the HTTP API and the analysis web page.")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Address to listen on; anything but loopback lets other machines use the server.")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port to listen on.")
@click.option("--max-trials", type=click.IntRange(min=1), default=ServiceSettings.max_rollout_trials,
              show_default=True, help="The most trials a rollout job may ask for.")
@click.option("--max-jobs", type=click.IntRange(min=1), default=ServiceSettings.max_running_jobs,
              show_default=True, help="Rollout jobs running at once.")
def serve(host: str, port: int, max_trials: int, max_jobs: int) -> None:
    """Serve the JSON API (/api/..., OpenAPI at /api/openapi.json) and the web page (/).

    Answers have the shapes of the commands' --json documents (docs/service.md). Stop with Ctrl-C.
    """
    import uvicorn

    from bgengine.service.app import create_app

    if not is_loopback(host):
        click.echo(f"note: listening on {host}: other machines can reach this server", err=True)
    settings = ServiceSettings(max_rollout_trials=max_trials, max_running_jobs=max_jobs)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info", server_header=False)
