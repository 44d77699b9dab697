"""A server on a thread of this process, for tests, benchmarks and notebooks."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def background_server(app: Any, host: str = "127.0.0.1", *, start_seconds: float = 30) -> Iterator[str]:
    """Serve the ASGI ``app`` with uvicorn on a free port of ``host`` in a thread; yields the
    base URL (``http://127.0.0.1:PORT``) and stops the server on exit."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind((host, 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="bgengine-server", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + start_seconds
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError(f"the server on {host}:{port} did not start")
            time.sleep(0.05)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=60)
