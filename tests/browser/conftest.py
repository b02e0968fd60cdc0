"""The browser every browser test drives: the one `make test` settled on (see locate.py).
No skip when there is none: the test fails saying exactly what to install."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.browser.locate import FLAGS, INSTRUCTIONS, Browser, find
from tests.server.conftest import web_server

__all__ = ["chromium", "page", "web_server"]

TIMEOUT_MS = 60_000


@pytest.fixture(scope="session")
def chromium() -> Browser:
    browser = find()
    if browser is None:
        pytest.fail(INSTRUCTIONS, pytrace=False)
    return browser


@pytest.fixture
def page(chromium: Browser) -> Iterator[Page]:
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(chromium.path), args=FLAGS, headless=True
        )
        try:
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            yield page
        finally:
            context.close()
