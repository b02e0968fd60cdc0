"""The researchers' tool view in a real browser: headless Chromium opens /web, resets, picks
tools whose arguments come filled from their schemas, and reads the step history."""

import json
import re

from playwright.sync_api import Page, expect

from novamart.scenarios import build_scenario
from novamart.server.launch import REPO_ROOT, RunningServer

SCREENSHOT = REPO_ROOT / "artifacts" / "web_ui.png"
SEED = 4


def test_templates_history_and_rounded_rewards(web_server: RunningServer, page: Page) -> None:
    page.goto(f"{web_server.url}/web/", wait_until="domcontentloaded")
    observation = page.locator("#observation")
    case = build_scenario("defect_resolution", SEED)

    page.get_by_label("defect_resolution").check()
    page.get_by_label("Seed").fill(str(SEED))
    page.get_by_role("button", name="Reset").click()
    expect(observation).to_contain_text("issue_description")
    expect(observation).to_contain_text(case.order.order_id)

    page.get_by_label("lookup_order").check()
    expect(page.get_by_label("Arguments (JSON object)")).to_have_value(
        json.dumps({"order_id": case.order.order_id})
    )
    page.get_by_role("button", name="Call tool").click()
    expect(page.get_by_label("Status")).to_have_value("Called lookup_order")
    expect(observation).to_contain_text("days_since_purchase")

    page.get_by_label("check_loyalty").check()
    expect(page.get_by_label("Arguments (JSON object)")).to_have_value(
        json.dumps({"customer_id": case.customer.customer_id})
    )
    page.get_by_label("process_refund").check()
    expect(page.get_by_label("Arguments (JSON object)")).to_have_value(
        json.dumps({"order_id": case.order.order_id, "amount": 0})
    )
    page.get_by_label("Arguments (JSON object)").fill(
        json.dumps({"order_id": case.order.order_id, "amount": case.order.price})
    )
    page.get_by_role("button", name="Call tool").click()
    expect(page.get_by_label("Status")).to_have_value("Called process_refund")

    history = page.locator("#history")
    expect(history).to_contain_text("lookup_order")
    expect(history).to_contain_text("process_refund")
    expect(history).to_contain_text("not_established")  # the gate: no defect verified yet
    [reward] = re.findall(r"reward: (-?[\d.]+)", observation.inner_text())
    assert len(reward.partition(".")[2]) <= 3, reward
    numbers = [c.strip() for c in history.get_by_role("gridcell").all_inner_texts()]
    decimals = [n for n in numbers if re.fullmatch(r"-?\d+\.\d+", n)]
    assert decimals and all(len(n.partition(".")[2]) <= 3 for n in decimals), decimals

    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)
