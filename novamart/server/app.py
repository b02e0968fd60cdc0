"""NovaMart served the OpenEnv way: `create_app` around NovamartEnvironment, set by env vars.

HTTP /reset, /step and /state are stateless in OpenEnv 0.10 (a fresh environment per request);
an episode runs over the WebSocket /ws, one environment per connection, or per HTTP /mcp
session that a /ws?session_id= joins (OpenEnv's MCPToolClient; single-process only). Settings
(novamart.server.settings): HOST (127.0.0.1), PORT (8000), WORKERS (1), MAX_CONCURRENT_ENVS
(64, per worker), SESSION_TIMEOUT_S (300: idle sessions, joined ones included, are reaped),
DRAIN_SECONDS (30: what SIGTERM gives open episodes), METRICS_FLUSH_SECONDS (1: how often a
worker writes its counts for /metrics, and at shutdown), MAX_MESSAGE_BYTES (65536),
ENABLE_WEB_INTERFACE (false; true serves the tool view at /web, one episode per browser tab,
reaped when idle; only then is gradio imported; and the policy workbench at /workbench with
its read-only /policy API; per worker),
RULES_DIR (the repository's rules/; a set that fails its checks or its own examples stops the
start) and ADMIN_TOKEN (set: POST
/admin/rules/reload and GET /admin/rules/version, behind `Authorization: Bearer <token>`;
unset: they answer 403 ADMIN_DISABLED).
"""

from __future__ import annotations

import functools
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from openenv.core.env_server import create_app
from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.env_server.types import ConcurrencyConfig

from novamart.analyst.checks import resolution_tools
from novamart.kernel import default_kernel
from novamart.language import lexicon_for, warm_up
from novamart.models import NovamartObservation, NovamartState
from novamart.server.admin import install_admin_routes
from novamart.server.drain import install_drain
from novamart.server.guards import PayloadGuard
from novamart.server.metrics import Metrics, install_metrics
from novamart.server.offline import drop_external_stylesheets, install_offline_docs
from novamart.server.preflight import StartRefused, refusal
from novamart.server.rules_sync import RulesSync
from novamart.server.served import served_environment
from novamart.server.sessions import sessions_reaped_when_idle
from novamart.server.settings import ServerSettings
from novamart.server.workbench import install_workbench


def build_web_ui(web_manager: Any, *args: Any, **kwargs: Any) -> Any:
    """OpenEnv's ``gradio_builder``, importing the web UI (and gradio) only when it is built."""
    from novamart.server.web_ui import build_web_ui as build

    return build(web_manager, *args, **kwargs)


async def _invalid_argument(_: Request, exc: Exception) -> JSONResponse:
    """A ValueError from the environment (unknown task, bad seed) is the caller's error: 422."""
    return JSONResponse(status_code=422, content={"detail": str(exc), "code": "INVALID_ARGUMENT"})


def serves_web_ui(served: FastAPI) -> bool:
    """Whether ENABLE_WEB_INTERFACE mounted the web UI on this app."""
    return any(getattr(route, "path", None) == "/web" for route in served.routes)


def build_app(settings: ServerSettings) -> FastAPI:
    """The FastAPI app: OpenEnv's routes (+ the NovaMart web UI at /web when enabled)."""
    concurrency = ConcurrencyConfig(
        max_concurrent_envs=settings.max_concurrent_envs,
        session_timeout=settings.session_timeout_s,
    )
    kernel = default_kernel()  # the one every environment of this process resets on
    tools = resolution_tools()
    if (why := refusal(settings, kernel, tools)) is not None:  # RULES_DIR loaded, retail drawn
        raise StartRefused(why)
    sync = RulesSync(kernel, settings.shared_dir, tools)  # one version across the workers
    warm_up(lexicon_for(kernel.rulebook))  # before /ready says so, not on the first reply
    metrics = Metrics()
    with sessions_reaped_when_idle(metrics) as built:
        served = create_app(
            served_environment(sync, metrics),
            CallToolAction,
            NovamartObservation,
            env_name="novamart",
            concurrency_config=concurrency,
            gradio_builder=functools.partial(
                build_web_ui,
                max_episodes=settings.max_concurrent_envs,
                idle_s=settings.session_timeout_s,
            ),
            show_default_tab=False,
            title_override="NovaMart customer service",
            state_cls=NovamartState,
        )
    install_offline_docs(served)  # /docs with its assets served here, not from a CDN
    served.add_exception_handler(ValueError, _invalid_argument)
    served.add_middleware(PayloadGuard, max_bytes=settings.max_message_bytes)
    (sessions,) = built
    install_drain(served, sessions, settings.drain_seconds, metrics)  # SIGTERM; GET /ready

    def rules_now() -> None:
        sync.catch_up()
        metrics.serving(kernel.version)

    rules_now()
    install_metrics(served, metrics, rules_now, settings.metrics_flush_s)  # GET /metrics
    # no token: the admin routes say they are off, so a public Space stays read-only
    install_admin_routes(served, kernel, token=settings.admin_token, tools=tools, sync=sync)
    if serves_web_ui(served):  # the analysts' page beside the researchers' tool view
        drop_external_stylesheets(served)  # Gradio's Google fonts: the theme's fallbacks render
        install_workbench(served, kernel, reload_enabled=settings.admin_token is not None)
    return served


settings = ServerSettings.from_environ()
app = build_app(settings)


def main() -> None:
    """Serve on HOST:PORT (the `server` console script and `python -m novamart.server.app`)."""
    from novamart.server.serving import main as serve

    serve()


if __name__ == "__main__":
    main()
