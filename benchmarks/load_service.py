"""Load benchmark of ``bgengine serve`` on loopback: analyze requests at a fixed concurrency,
alone and while a rollout job runs. Prints requests per second and p50/p99 latency.

    python benchmarks/load_service.py [--requests 2000] [--concurrency 16]

Bounded: the server is started here on 127.0.0.1 (a free port), each phase sends exactly
``--requests`` requests with a per-request timeout, the rollout job is cancelled at the
end, and the server stops. Every answer is checked (status 200 and the best play) before
it counts, so a fast wrong answer cannot pass.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import httpx2 as httpx  # the maintained successor of httpx, the one starlette's test client wants

from bgengine.service.app import create_app
from bgengine.service.background import background_server

OPENING_31 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"
START = "4HPwATDgc/ABMA"  # the opening position before the roll, rolled out meanwhile
BEST_31 = "8/5 6/5"


async def load(base: str, requests: int, concurrency: int) -> tuple[float, list[float], int]:
    """(seconds, latencies, failures) of ``requests`` analyze calls, ``concurrency`` at a time."""
    latencies: list[float] = []
    failures = 0
    remaining = iter(range(requests))
    body = {"position": OPENING_31}

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal failures
        for _ in remaining:
            started = time.perf_counter()
            try:
                response = await client.post("/api/analyze", json=body)
                ok = response.status_code == 200 and response.json()["moves"]["moves"][0]["move"] == BEST_31
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - started)
            failures += not ok

    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=30.0, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        return time.perf_counter() - started, latencies, failures


def report(name: str, seconds: float, latencies: list[float], failures: int) -> None:
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    print(f"{name:<28} {len(latencies):>6} requests  {len(latencies) / seconds:8.1f} req/s  "
          f"p50 {1000 * cuts[49]:7.1f} ms  p99 {1000 * cuts[98]:7.1f} ms  failures {failures}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    options = parser.parse_args()
    with background_server(create_app()) as base:
        asyncio.run(load(base, 50, options.concurrency))  # warm-up: the network and tables load once
        report("analyze", *asyncio.run(load(base, options.requests, options.concurrency)))
        with httpx.Client(base_url=base, timeout=30.0) as client:
            job = client.post("/api/rollouts", json={"position": START, "trials": 20_736, "seed": 1}).json()
            try:
                report("analyze during a rollout", *asyncio.run(load(base, options.requests, options.concurrency)))
                progress = client.get(f"/api/rollouts/{job['id']}").json()["progress"]
                print(f"the rollout meanwhile: {progress['done']} of {progress['total']} trials")
            finally:
                client.delete(f"/api/rollouts/{job['id']}")

if __name__ == "__main__":
    main()
