"""Every page loads from this server alone: no script, stylesheet, font or image from another
host (a blank /docs offline; fonts that tell Google who looks at the web UI).

The check reads what a browser would fetch from a page's HTML (script, link, img, iframe,
source, and url()/@import in inline CSS) and, for the Gradio web UI, the stylesheets its
config makes the page load. Addresses a browser does not fetch (an <a href>, <meta> cards)
are not requests. tests/browser checks the same in a real browser."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.openapi.docs import get_swagger_ui_html

from novamart.server.launch import RunningServer

PAGES = ("/docs", "/web/", "/workbench")
FETCHED = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src"}
CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])([^'")\s]+)""")


class Fetched(HTMLParser):
    """The addresses a browser fetches to show a page."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        wanted = FETCHED.get(tag)
        if wanted and values.get(wanted):
            self.urls.append(str(values[wanted]))
        self.urls += CSS_URL.findall(values.get("style") or "")
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.urls += CSS_URL.findall(data)


def elsewhere(urls: list[str], own: str) -> list[str]:
    """The addresses among ``urls`` on a host other than ``own`` (relative ones are ours)."""
    host = urlsplit(own).netloc
    return [u for u in urls if urlsplit(u).netloc not in ("", host) and not u.startswith("data:")]


def loaded_from_elsewhere(html: str, own: str) -> list[str]:
    parser = Fetched()
    parser.feed(html)
    return elsewhere(parser.urls, own)


def test_the_check_sees_a_cdn_page_and_google_fonts() -> None:
    own = "http://127.0.0.1:8000"
    stock = get_swagger_ui_html(openapi_url="/openapi.json", title="x").body.decode()
    assert len(loaded_from_elsewhere(stock, own)) == 3  # FastAPI's own /docs: JS, CSS, favicon
    fonts = "<style>@import 'https://fonts.googleapis.com/css2?family=Geist';</style>"
    assert loaded_from_elsewhere(fonts, own) == ["https://fonts.googleapis.com/css2?family=Geist"]
    honest = '<a href="https://gradio.app/">x</a><meta content="https://x.test/i.jpg">'
    honest += '<script src="/static-offline-docs/swagger-ui-bundle.js"></script>'
    assert loaded_from_elsewhere(honest + f'<link href="{own}/theme.css">', own) == []


@pytest.mark.parametrize("path", PAGES)
def test_no_page_loads_anything_from_another_host(web_server: RunningServer, path: str) -> None:
    page = httpx.get(f"{web_server.url}{path}", timeout=30)
    assert page.status_code == 200
    assert loaded_from_elsewhere(page.text, web_server.url) == []


def test_docs_serve_swagger_ui_from_here(web_server: RunningServer) -> None:
    parser = Fetched()
    parser.feed(httpx.get(f"{web_server.url}/docs", timeout=30).text)
    assert any(url.endswith("swagger-ui-bundle.js") for url in parser.urls)
    for url in parser.urls:
        asset = httpx.get(f"{web_server.url}{url}", timeout=30)
        assert asset.status_code == 200 and len(asset.content) > 1000, url
    assert httpx.get(f"{web_server.url}/redoc", timeout=30).status_code == 404  # off: its logo


def test_the_web_ui_asks_for_no_external_fonts(web_server: RunningServer) -> None:
    config = httpx.get(f"{web_server.url}/web/config", timeout=30).json()
    assert elsewhere(config["stylesheets"], web_server.url) == []
    theme = httpx.get(f"{web_server.url}/web/theme.css", timeout=30).text
    assert elsewhere(CSS_URL.findall(theme), web_server.url) == []
