"""`novamart serve`: run the OpenEnv server (novamart/cli.py registers `serve` as a command).

Options are passed to the server as the environment variables it reads (see
novamart.server.settings), so `novamart serve`, the `server` script, Docker and every worker
process behave alike; an option left out keeps its variable's value (the Docker image sets
WORKERS, and passes --host 0.0.0.0).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[
        str | None,
        typer.Option(help="Interface to bind (env HOST, default 127.0.0.1; 0.0.0.0: all)"),
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (env PORT, default 8000)")] = None,
    workers: Annotated[
        int | None,
        typer.Option(help="Server processes on the one port (env WORKERS, default 1)", min=1),
    ] = None,
    max_concurrent_envs: Annotated[
        int | None,
        typer.Option(
            help="Most simultaneous sessions per worker (env MAX_CONCURRENT_ENVS, default 64)"
        ),
    ] = None,
    session_timeout_s: Annotated[
        float | None,
        typer.Option(help="Idle session lifetime (env SESSION_TIMEOUT_S, default 300)"),
    ] = None,
    drain_seconds: Annotated[
        float | None,
        typer.Option(
            help="On SIGTERM, how long open episodes may go on (env DRAIN_SECONDS, default 30)"
        ),
    ] = None,
    web: Annotated[
        bool | None,
        typer.Option(
            "--web/--no-web",
            help="Web UI at /web and /workbench, per worker (env ENABLE_WEB_INTERFACE, "
            "default off)",
        ),
    ] = None,
    rules_dir: Annotated[
        Path | None,
        typer.Option(
            "--rules-dir", help="Folder of rule files to serve (env RULES_DIR, default rules/)"
        ),
    ] = None,
) -> None:
    """Serve NovaMart over OpenEnv: WebSocket /ws, HTTP, MCP /mcp, /health, /ready, /metrics
    and optionally /web."""
    given = {
        "HOST": host,
        "PORT": port,
        "WORKERS": workers,
        "MAX_CONCURRENT_ENVS": max_concurrent_envs,
        "SESSION_TIMEOUT_S": session_timeout_s,
        "DRAIN_SECONDS": drain_seconds,
        "ENABLE_WEB_INTERFACE": None if web is None else str(web).lower(),
        "RULES_DIR": None if rules_dir is None else rules_dir.resolve(),
    }
    os.environ.update({name: str(value) for name, value in given.items() if value is not None})
    from novamart.server.serving import main  # the workers read os.environ as set here

    main()
