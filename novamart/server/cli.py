"""`novamart serve`: run the OpenEnv server (novamart/cli.py registers `serve` as a command).

Options are passed to the server as the environment variables it reads at import (see
novamart.server.app), so `novamart serve`, the `server` script and Docker behave alike.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[
        str | None, typer.Option(help="Interface to bind (env HOST, default 0.0.0.0)")
    ] = None,
    port: Annotated[int | None, typer.Option(help="Port (env PORT, default 8000)")] = None,
    max_concurrent_envs: Annotated[
        int | None,
        typer.Option(help="Most simultaneous sessions (env MAX_CONCURRENT_ENVS, default 64)"),
    ] = None,
    session_timeout_s: Annotated[
        float | None,
        typer.Option(help="Idle session lifetime (env SESSION_TIMEOUT_S, default 300)"),
    ] = None,
    web: Annotated[
        bool | None,
        typer.Option(
            "--web/--no-web", help="Web UI at /web (env ENABLE_WEB_INTERFACE, default off)"
        ),
    ] = None,
    rules_dir: Annotated[
        Path | None,
        typer.Option(
            "--rules-dir", help="Folder of rule files to serve (env RULES_DIR, default rules/)"
        ),
    ] = None,
) -> None:
    """Serve NovaMart over OpenEnv: HTTP, WebSocket /ws, MCP /mcp and optionally /web."""
    given = {
        "HOST": host,
        "PORT": port,
        "MAX_CONCURRENT_ENVS": max_concurrent_envs,
        "SESSION_TIMEOUT_S": session_timeout_s,
        "ENABLE_WEB_INTERFACE": None if web is None else str(web).lower(),
        "RULES_DIR": None if rules_dir is None else rules_dir.resolve(),
    }
    os.environ.update({name: str(value) for name, value in given.items() if value is not None})
    from novamart.server.app import main  # imported now: the app reads os.environ at import

    main()
