"""Pages that ask no other host for anything, so they work offline and tell no one who looks.

/docs: Swagger UI served from the assets bundled in the fastapi-offline package (FastAPI's own
page loads them and a favicon from a CDN, so without a network /docs is a blank page). /redoc
is off: ReDoc's bundle itself loads its logo from another host. The web UI at /web: OpenEnv's
Gradio theme names Google-hosted fonts (Geist), which Gradio turns into stylesheets the page
loads from Google; they are dropped, and the theme's own fallbacks (system-ui, ui-monospace)
render the text."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Mount

ASSETS_URL = "/static-offline-docs"
ASSETS = Path(str(files("fastapi_offline") / "static"))


def install_offline_docs(app: FastAPI) -> None:
    """Replace ``app``'s /docs and its OAuth2 redirect with pages whose every asset is served
    by ``app`` itself, under ASSETS_URL; remove /redoc."""
    docs, redoc, redirect = app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url
    replaced = {docs, redoc, redirect} - {None}
    app.router.routes = [r for r in app.router.routes if getattr(r, "path", None) not in replaced]
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="offline-docs")

    def assets(request: Request) -> str:
        return f"{request.scope.get('root_path', '')}{ASSETS_URL}"

    def openapi(request: Request) -> str:
        return f"{request.scope.get('root_path', '')}{app.openapi_url}"

    if docs is not None:

        async def swagger_ui(request: Request) -> HTMLResponse:
            return get_swagger_ui_html(
                openapi_url=openapi(request),
                title=f"{app.title} - Swagger UI",
                oauth2_redirect_url=redirect,
                swagger_js_url=f"{assets(request)}/swagger-ui-bundle.js",
                swagger_css_url=f"{assets(request)}/swagger-ui.css",
                swagger_favicon_url=f"{assets(request)}/favicon.png",
                swagger_ui_parameters=app.swagger_ui_parameters,
            )

        app.add_route(docs, swagger_ui, include_in_schema=False)
    if docs is not None and redirect is not None:

        async def oauth2_redirect(_: Request) -> HTMLResponse:
            return get_swagger_ui_oauth2_redirect_html()

        app.add_route(redirect, oauth2_redirect, include_in_schema=False)


def is_external(url: str) -> bool:
    """Whether a stylesheet or script address points at another host (not a path of ours)."""
    return url.startswith(("http://", "https://", "//"))


def drop_external_stylesheets(app: FastAPI, path: str = "/web") -> None:
    """Keep the Gradio app mounted at ``path`` from loading stylesheets from other hosts."""
    for route in app.router.routes:
        if isinstance(route, Mount) and route.path == path and hasattr(route.app, "get_blocks"):
            blocks = route.app.get_blocks()
            blocks.stylesheets = [s for s in blocks.stylesheets if not is_external(s)]
            blocks.config["stylesheets"] = blocks.stylesheets
