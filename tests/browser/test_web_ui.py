"""The web UI in a real browser: headless Chromium opens /web, resets, calls a tool."""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from novamart.server.launch import REPO_ROOT, RunningServer, serve_in_subprocess

SCREENSHOT = REPO_ROOT / "artifacts" / "web_ui.png"


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("web") / "server.log"
    with serve_in_subprocess(log, env={"ENABLE_WEB_INTERFACE": "true"}) as running:
        yield running


def test_reset_and_a_tool_call_show_the_observation(web_server: RunningServer, page: Page) -> None:
    page.goto(f"{web_server.url}/web/", wait_until="domcontentloaded")
    observation = page.locator("#observation")

    page.get_by_label("defect_resolution").check()
    page.get_by_role("button", name="Reset").click()
    expect(observation).to_contain_text("issue_description")
    expect(observation).to_contain_text("defect_resolution")
    order_id = re.search(r"ORD-\d+", observation.inner_text()).group(0)

    page.get_by_label("lookup_order").check()
    page.get_by_label("Arguments (JSON object)").fill(f'{{"order_id": "{order_id}"}}')
    page.get_by_role("button", name="Call tool").click()
    expect(page.get_by_label("Status")).to_have_value("Called lookup_order")
    expect(observation).to_contain_text("days_since_purchase")
    expect(observation).to_contain_text('"ok": true')

    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
