"""Every page the server offers works offline: none asks any host but the server itself.

The browser's every request (pages, scripts, styles, fonts, sockets) is watched; one to
another host is refused on the spot (nothing leaves the machine) and fails the test."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page, Route, expect

from novamart.server.launch import RunningServer

PAGES = {  # page -> something it shows once it has loaded its scripts
    "/web/": "Start episode",
    "/workbench": "Load case",
    "/docs": "NovaMart",
}
SHOWN_MS = 15_000
SETTLE_MS = 1500
"""After the page shows itself, time for the late requests (fonts, icons, sockets)."""


def test_no_page_requests_another_host(web_server: RunningServer, page: Page) -> None:
    outside: list[str] = []

    def remote(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != "127.0.0.1"

    def guard(route: Route) -> None:
        if remote(route.request.url):
            outside.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.context.route("**/*", guard)
    page.on("websocket", lambda socket: outside.append(socket.url) if remote(socket.url) else None)
    blank = []
    for path, shown in PAGES.items():
        page.goto(f"{web_server.url}{path}", wait_until="load")
        try:
            expect(page.get_by_text(shown).first).to_be_visible(timeout=SHOWN_MS)
        except AssertionError:
            blank.append(path)
        page.wait_for_timeout(SETTLE_MS)
    assert outside == [], f"pages asked other hosts: {sorted(set(outside))}"
    assert blank == [], f"pages that did not show themselves offline: {blank}"
