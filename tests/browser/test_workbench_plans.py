"""The workbench's plans in a real browser: pick rules/retail and one of its examples, and
read its plan request by request and item by item, with the events each call required and
what it changed; the serving rules' workbench above it works as before."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from novamart.kernel import load_rulebook
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.server.launch import REPO_ROOT, RunningServer

ARTIFACTS = REPO_ROOT / "artifacts"
THREE = "a plan of three requests, each on the state the one before left"


def test_an_example_plan_per_request_and_item(web_server: RunningServer, page: Page) -> None:
    page.goto(f"{web_server.url}/workbench", wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("body")).to_have_attribute("data-plans-ready", "true")
    expect(page.locator("#version")).to_have_text(load_rulebook().version)  # the serving rules
    retail = load_rulebook(DEFAULT_RULES_DIR / "retail")
    page.locator("#plan-rulebook").select_option("retail")
    expect(page.locator("#plan-rulebook")).to_contain_text(retail.version)
    page.locator("#plan-example").select_option(THREE)
    page.get_by_role("button", name="Explain plan").click()
    expect(page.locator("#plan-summary")).to_contain_text(
        "Plan in the order written: 1 of 3 requests carried out"
    )
    exchange, ret, cancel = (page.locator(f'[data-step="{n}"]') for n in (1, 2, 3))
    expect(exchange).to_contain_text("declined with decline")
    final = exchange.locator(
        '[data-member="item I3"][data-condition="exchange_delivered.items_exchangeable"]'
    )
    expect(final).to_contain_text("fail")
    expect(final).to_contain_text("item.final_sale is true")
    expect(ret).to_contain_text("carried out")
    delivered = '[data-member="item I1"][data-condition="return_delivered.items_delivered"]'
    expect(ret.locator(delivered)).to_contain_text("pass")
    status = ret.locator('[data-change="order #W1 status"]')
    expect(status).to_contain_text("delivered")
    expect(status).to_contain_text("return requested")
    expect(ret.locator('[data-change="payment gift_card_1 balance"]')).to_contain_text("180")
    expect(cancel.locator(".requires")).to_contain_text("confirmed missing")
    expect(page.locator("#plan-handbook-text")).to_contain_text(
        "every item named in the request: its status is delivered"
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "workbench_plan.png"), full_page=True)


def test_an_edited_case_gets_its_best_plan(web_server: RunningServer, page: Page) -> None:
    page.goto(f"{web_server.url}/workbench", wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-plans-ready", "true")
    page.locator("#plan-rulebook").select_option("retail")
    page.locator("#plan-example").select_option(THREE)
    page.locator("#plan-own summary").click()
    case = json.loads(page.locator("#plan-case").input_value())
    case["facts"]["item"][2]["final_sale"] = False  # I3 no longer sold as final
    page.locator("#plan-case").fill(json.dumps(case))
    page.get_by_role("button", name="Explain these requests").click()
    expect(page.locator("#plan-summary")).to_contain_text("Best plan:")
    exchanged = page.locator(
        '[data-member="item I3"][data-condition="exchange_delivered.items_exchangeable"]'
    ).first
    expect(exchanged).to_contain_text("pass")
    page.locator("#plan-case").fill("{not json")
    page.get_by_role("button", name="Explain these requests").click()
    expect(page.locator("#plan-error")).to_contain_text("JSON")
