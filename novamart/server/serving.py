"""Start the server: the banner, then uvicorn with WORKERS processes.

uvicorn is given the app as an import string, so with ``WORKERS`` > 1 the supervisor builds
no app of its own; each worker imports ``novamart.server.app`` and reads the same settings
from the environment. What workers must share (the rules version a reload made current, the
metrics) goes through files in one scratch folder that the supervisor names for them
(``shared_state``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import uvicorn

from novamart.analyst.checks import resolution_tools
from novamart.kernel import default_kernel
from novamart.server.preflight import StartRefused, refusal
from novamart.server.settings import ServerSettings

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"

APP = "novamart.server.app:app"
SHUTDOWN_AFTER_DRAIN_S = 5.0
"""uvicorn's own grace, after the drain closed every session (novamart.server.drain)."""
WORKER_HEALTHCHECK_S = 60
"""How long the supervisor waits for a worker's answer before replacing it: uvicorn's 5 s
killed workers still compiling the rules on a loaded machine (the engine holds the GIL)."""


def routes(settings: ServerSettings) -> list[tuple[str, str]]:
    """The banner's lines: each route and what it is for."""
    web = "" if settings.serves_web_ui else "  (off: --web or ENABLE_WEB_INTERFACE=true)"
    return [
        ("/ws", "episodes (WebSocket; one session a connection)"),
        ("/web", f"tool view{web}"),
        ("/workbench", f"policy workbench{web}"),
        ("/docs", "API documentation"),
        ("/health", "liveness"),
        ("/ready", "readiness: 503 when full or draining"),
        ("/metrics", "Prometheus metrics"),
    ]


def banner(settings: ServerSettings) -> str:
    """What a start prints: where to go, and what is per worker."""
    local = settings.host in ("0.0.0.0", "::")
    shown = "127.0.0.1" if local else settings.host
    base = f"http://{shown}:{settings.port}"
    where = f" (listening on all interfaces, {settings.host})" if local else ""
    workers = "1 worker" if settings.workers == 1 else f"{settings.workers} workers"
    lines = [
        f"NovaMart on {base}{where}: {workers}, each with up to "
        f"{settings.max_concurrent_envs} sessions (idle ones reaped after "
        f"{settings.session_timeout_s:g} s); SIGTERM drains for {settings.drain_seconds:g} s",
    ]
    width = max(len(path) for path, _ in routes(settings))
    lines += [f"  {base}{path.ljust(width)}  {about}" for path, about in routes(settings)]
    return "\n".join(lines)


SHARED_DIR = ServerSettings.model_fields["shared_dir"].alias


def shared_state(settings: ServerSettings) -> str | None:
    """With several workers, a scratch folder for the state they share, named in the
    environment the workers inherit (unless the operator named one): the folder this call
    made, to remove at the end."""
    if settings.workers == 1:
        return None
    named = os.environ.get(SHARED_DIR)
    folder = named or tempfile.mkdtemp(prefix="novamart-")
    os.environ[SHARED_DIR] = folder
    metrics = Path(folder) / "metrics"  # prometheus-client's multiprocess mode
    metrics.mkdir(exist_ok=True)
    os.environ.setdefault(MULTIPROCESS_DIR, str(metrics))
    return None if named else folder


def main() -> None:
    """Serve on HOST:PORT with WORKERS processes (``novamart serve``, the ``server`` script)."""
    settings = ServerSettings.from_environ()
    several = settings.workers > 1  # a worker that cannot start is started again, and again
    if several and (why := refusal(settings, default_kernel(), resolution_tools())) is not None:
        raise StartRefused(why)
    made = shared_state(settings)
    print(banner(settings), flush=True)
    try:
        uvicorn.run(
            APP,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            timeout_graceful_shutdown=SHUTDOWN_AFTER_DRAIN_S,
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        )
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
