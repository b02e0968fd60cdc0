"""The browser every browser test drives: the one `make test` settled on (see locate.py).
When there is none, the test fails saying exactly what to install, except when the person
running the tests did not consent to an install (NOVAMART_INSTALL_BROWSER unset): then it is
skipped with that reason, and `make test`'s last line says the browser tests did not run."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.browser.locate import FLAGS, INSTRUCTIONS, Browser, asked_for_none, find, not_run_reason
from tests.server.conftest import web_server

__all__ = ["chromium", "page", "web_server"]

TIMEOUT_MS = 60_000  # for actions and expect() alike: a loaded 2-core machine takes seconds
expect.set_options(timeout=TIMEOUT_MS)  # expect()'s own default is 5 s


@pytest.fixture(scope="session")
def chromium() -> Browser:
    browser = find()
    if browser is None and asked_for_none():
        pytest.skip(not_run_reason())
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
