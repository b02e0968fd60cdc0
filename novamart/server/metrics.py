"""``GET /metrics``: a worker's sessions, episodes, step latency, scores and rules version, in
the Prometheus text format (prometheus-client).

One process (the default, and the Kubernetes layout: one process a pod) answers with its own
registry. A server of several workers (``novamart serve`` with WORKERS > 1) runs
prometheus-client's multiprocess mode: every worker writes its values to files in
PROMETHEUS_MULTIPROC_DIR (under the server's scratch folder), and whichever worker takes a
scrape answers for all of them, counters and histograms summed, ``novamart_sessions_open``
summed over the live workers, and the per-worker series (``novamart_rules_version``,
``novamart_draining``) labelled with each worker's ``pid``. What the step path counts (step
times, episodes, scores) is written in bulk, every second and before each scrape
(novamart.server.tally).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

from fastapi import FastAPI
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from novamart.server.tally import FLUSH_SECONDS, Tally

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"
STEP_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SCORE_BUCKETS = tuple(round(0.1 * tenth, 1) for tenth in range(11))


def multiprocess_mode() -> bool:
    return bool(os.environ.get(MULTIPROCESS_DIR))


class Metrics:
    """The metrics of one worker, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        known = {"registry": self.registry}
        self.sessions_open = Gauge(
            "novamart_sessions_open", "Open sessions", multiprocess_mode="livesum", **known
        )
        self.sessions_refused = Counter(
            "novamart_sessions_refused",
            "Sessions refused, by reason (capacity: MAX_CONCURRENT_ENVS reached; draining)",
            ["reason"],
            **known,
        )
        self.sessions_reaped = Counter(
            "novamart_sessions_reaped", "Sessions freed by the idle reaper", **known
        )
        self.episodes_started = Counter(
            "novamart_episodes_started", "Episodes reset, by task", ["task"], **known
        )
        self.episodes = Counter(
            "novamart_episodes",
            "Episodes ended, by task and termination reason",
            ["task", "termination"],
            **known,
        )
        self.step_seconds = Histogram(
            "novamart_step_seconds",
            "Time to serve one step (an episode's steps are counted when it ends or its session "
            "closes)",
            buckets=STEP_BUCKETS,
            **known,
        )
        self.score = Histogram(
            "novamart_episode_score",
            "Final score of ended episodes, by task",
            ["task"],
            buckets=SCORE_BUCKETS,
            **known,
        )
        self.rules_version = Gauge(
            "novamart_rules_version",
            "1 for the rules version this worker serves (labelled), 0 for earlier ones",
            ["version"],
            multiprocess_mode="liveall",
            **known,
        )
        self.draining = Gauge(
            "novamart_draining", "1 while this worker drains", multiprocess_mode="liveall", **known
        )
        self._version: str | None = None
        self.tally = Tally(self.step_seconds, self.episodes_started, self.episodes, self.score)

    def serving(self, version: str) -> None:
        """Mark ``version`` as the rules this worker serves."""
        if version == self._version:
            return
        if self._version is not None:
            self.rules_version.labels(self._version).set(0)
        self.rules_version.labels(version).set(1)
        self._version = version

    def exposition(self) -> bytes:
        """The text a scrape gets: this process's registry, or every worker's files."""
        self.tally.flush()
        if not multiprocess_mode():
            return generate_latest(self.registry)
        gathered = CollectorRegistry()
        multiprocess.MultiProcessCollector(gathered)
        return generate_latest(gathered)


def worker_exited() -> None:
    """Drop this worker's live-only series (its open sessions, its rules version)."""
    if multiprocess_mode():
        multiprocess.mark_process_dead(os.getpid())


def install_metrics(
    app: FastAPI,
    metrics: Metrics,
    before_scrape: Callable[[], None] | None = None,
    flush_s: float = FLUSH_SECONDS,
) -> None:
    """``GET /metrics``; ``before_scrape`` runs first (to catch up the rules version). The
    step path's counts are written every ``flush_s``, and last when the worker stops."""

    @app.get("/metrics", tags=["Health"], response_class=Response)
    def scrape() -> Response:
        """Prometheus metrics (text format 0.0.4)."""
        if before_scrape is not None:
            before_scrape()
        return Response(content=metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    flushing: list[asyncio.Task[None]] = []

    async def flush_every_second() -> None:
        while True:
            await asyncio.sleep(flush_s)
            metrics.tally.flush()

    def start_flushing() -> None:
        flushing.append(asyncio.get_running_loop().create_task(flush_every_second()))

    async def last_flush() -> None:
        for task in flushing:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        metrics.tally.flush()
        worker_exited()

    app.router.add_event_handler("startup", start_flushing)
    app.router.add_event_handler("shutdown", last_flush)
