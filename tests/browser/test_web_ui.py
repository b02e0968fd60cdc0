"""The researchers' web UI in a real browser: headless Chromium plays an episode by clicking,
with the form's defaults and sensible choices, to a final score of 1.0, while a second tab
plays an episode of its own. Screenshots are kept under artifacts/."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from novamart.scenarios import build_scenario
from novamart.server.launch import REPO_ROOT, RunningServer

ARTIFACTS = REPO_ROOT / "artifacts"


def start(page: Page, server: RunningServer, task: str | None = None) -> None:
    page.goto(f"{server.url}/web/", wait_until="domcontentloaded")
    if task is not None:
        page.get_by_label("Task").click()
        page.get_by_role("option", name=task, exact=True).click()
    page.get_by_role("button", name="Start episode").click()
    expect(page.locator("#status")).to_contain_text("Started")


def step_is(page: Page, step: int) -> None:
    expect(page.locator("#case")).to_contain_text(f"step {step} of")


def call(page: Page, tool: str, steps_before: int) -> None:
    """Call ``tool`` with what the form holds and wait for its step."""
    page.get_by_role("button", name="Call tool").click()
    step_is(page, steps_before + 1)
    expect(page.locator("#status")).to_contain_text(f"Called {tool}")
    expect(page.locator("#steps")).to_contain_text(tool)


def pick(page: Page, tool: str) -> None:
    """Choose ``tool`` and wait for its form."""
    page.locator("#tool").get_by_label(tool, exact=True).check()
    expect(page.locator("#tool-about")).to_contain_text(tool)


def test_an_episode_played_by_clicking_scores_one(web_server: RunningServer, page: Page) -> None:
    case = build_scenario("easy_refund", None)
    start(page, web_server)  # the first task, its canonical case
    card = page.locator("#case")
    expect(card).to_contain_text(case.order.order_id)
    expect(card).to_contain_text(case.customer.customer_id)
    expect(card).to_contain_text("purchase date not looked up yet")
    expect(page.get_by_text(case.opening[:40])).to_have_count(1)  # shown once, in the card

    pick(page, "lookup_order")
    expect(page.get_by_label("order_id (required)")).to_have_value(
        case.order.order_id
    )  # the case's id
    call(page, "lookup_order", 0)
    expect(card).to_contain_text(f"bought {case.order.days_since_purchase} days ago")
    expect(page.locator("#result")).to_contain_text(f"price: {case.order.price}")

    # meanwhile another tab plays its own episode: a defect case, with check_policy
    other = page.context.new_page()
    start(other, web_server, "defect_resolution")
    pick(other, "check_policy")
    other.get_by_role("button", name="Call tool").click()
    expect(other.locator("#status")).to_contain_text("Not sent")  # no policy chosen yet
    expect(other.locator("#status")).to_contain_text("defective_item")  # the allowed values
    step_is(other, 0)
    other.get_by_label("policy (required)").click()
    other.get_by_role("option", name="defective_item", exact=True).click()
    call(other, "check_policy", 0)
    other.screenshot(path=str(ARTIFACTS / "web_ui_other_tab.png"), full_page=True)

    # back in the first tab: still its own case; the amount starts empty and is not sent so
    pick(page, "process_refund")
    amount = page.get_by_label("amount (required)")
    expect(amount).to_have_value("")
    page.get_by_role("button", name="Call tool").click()
    expect(page.locator("#status")).to_contain_text("Not sent")
    step_is(page, 1)
    amount.fill(str(case.order.price))
    call(page, "process_refund", 1)
    expect(page.locator("#result")).to_contain_text("full_refund")

    pick(page, "respond_to_customer")
    expect(page.get_by_label("message (required)")).to_have_value("")
    page.get_by_label("message (required)").fill(
        f"Thank you for your patience, {case.customer.name.split()[0]}. I've processed a full "
        f"refund of ${case.order.price:.2f} to your original payment method."
    )
    call(page, "respond_to_customer", 2)

    end = page.locator("#episode-end")
    expect(end).to_be_visible()
    expect(end).to_contain_text("Final score: 1.0")
    expect(end).to_contain_text("the customer closed the conversation")
    expect(end).to_contain_text("communication")
    expect(end).to_contain_text("The optimum and why")
    expect(end).to_contain_text("standard_return")
    expect(page.locator("#chat")).to_contain_text("refund of $")  # the agent's message
    page.screenshot(path=str(ARTIFACTS / "web_ui_end.png"), full_page=True)
    cells = [c.strip() for c in page.locator("#steps").get_by_role("gridcell").all_inner_texts()]
    numbers = [c for c in cells if re.fullmatch(r"-?\d+\.\d+", c)]
    assert len(numbers) >= 5 and all(len(n.partition(".")[2]) <= 3 for n in numbers), cells
    expect(other.locator("#case")).to_contain_text("defect_resolution")
