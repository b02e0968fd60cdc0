"""The policy workbench in a real browser, as an analyst uses it: pick a case, change a fact
and watch the decision follow, ask why not a refund, try a rule change and read its impact.
Screenshots of each stage are kept under artifacts/."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from novamart.kernel import default_kernel, load_rulebook
from novamart.scenarios import build_scenario
from novamart.server.launch import REPO_ROOT, RunningServer

ARTIFACTS = REPO_ROOT / "artifacts"


def _goodwill_only(seed: int) -> bool:
    """A loyalty case whose best resolution is the goodwill credit and nothing else is
    allowed but it (so a standard member would get a manager)."""
    decision = default_kernel().decide(build_scenario("loyalty_negotiation", seed).facts())
    return [g.resolution for g in decision.eligible] == ["store_credit"]


SEED = next(s for s in range(100) if _goodwill_only(s))


def open_workbench(page: Page, server: RunningServer) -> None:
    page.goto(f"{server.url}/workbench", wait_until="domcontentloaded")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def condition(page: Page, ref: str):
    return page.locator(f'[data-condition="{ref}"]')


def answered(page: Page, before: str | None) -> None:
    """Wait for an answer newer than ``before``."""
    page.wait_for_function(
        "before => document.body.dataset.answered && document.body.dataset.answered !== before",
        arg=before,
    )


def test_a_case_then_what_if_then_why_not(web_server: RunningServer, page: Page) -> None:
    open_workbench(page, web_server)
    expect(page.locator("#version")).to_have_text(load_rulebook().version)
    case = build_scenario("loyalty_negotiation", SEED)

    page.locator("#task").select_option("loyalty_negotiation")
    page.locator("#seed").fill(str(SEED))
    page.get_by_role("button", name="Load case").click()
    expect(page.locator("#best")).to_contain_text("store_credit")
    expect(page.locator("#opening")).to_contain_text(case.order.order_id)
    window = condition(page, "standard_return.within_return_window")
    expect(window).to_contain_text("order.days_since_purchase <= 30")
    expect(window).to_contain_text(f"{case.order.days_since_purchase} (lookup_order)")
    expect(window).to_contain_text("fail")
    expect(page.get_by_label("order.days_since_purchase")).to_have_value(
        str(case.order.days_since_purchase)
    )
    # the granting policy leads; one whose conditions are simply not met does not apply,
    # and a hazard that is absent is no failure
    expect(page.locator("#trace-table .policy-row").first).to_have_attribute(
        "data-policy", "loyalty_goodwill"
    )
    hazards = page.locator('#trace-table [data-policy="mandatory_escalation"]')
    expect(hazards).to_contain_text("does not apply")
    expect(hazards).not_to_contain_text("blocked")
    swelling = condition(page, "mandatory_escalation.battery_swelling")
    expect(swelling.locator(".quiet")).to_have_text("no")
    expect(page.locator('#trace-table [data-policy="standard_return"]')).to_contain_text(
        "does not apply"
    )
    page.screenshot(path=str(ARTIFACTS / "workbench_case.png"), full_page=True)

    # what if the customer were a standard member? no goodwill credit, a manager instead
    before = page.locator("body").get_attribute("data-answered")
    page.get_by_label("customer.tier").select_option("standard")
    answered(page, before)
    expect(page.locator("#best")).to_have_text("Best resolution: escalate under escalation")
    expect(condition(page, "loyalty_goodwill.loyalty_member")).to_contain_text(
        "standard (check_loyalty)"
    )
    expect(page.locator("#timing")).to_contain_text("answered in")

    # and had it been bought 10 days ago, unopened: a full refund
    page.get_by_label("order.days_since_purchase").fill("10")
    page.get_by_label("order.opened").select_option("false")
    expect(page.locator("#best")).to_contain_text("full_refund")
    expect(condition(page, "standard_return.within_return_window")).to_contain_text("pass")
    page.screenshot(path=str(ARTIFACTS / "workbench_whatif.png"), full_page=True)

    # a swollen battery: the refund's policy still holds, but the mandatory review sets it aside
    page.get_by_label("ticket.battery_swelling").select_option("true")
    expect(page.locator("#best")).to_contain_text("escalate under mandatory_escalation")
    expect(page.locator('#trace-table [data-policy="standard_return"]')).to_contain_text(
        "blocked (mandatory_escalation overrides it)"
    )
    expect(page.locator("#trace-table .policy-row").first).to_have_attribute(
        "data-policy", "mandatory_escalation"
    )
    page.get_by_label("ticket.battery_swelling").select_option("false")

    # not knowing the customer leaves the goodwill policy undetermined
    page.get_by_label("order.days_since_purchase").fill("45")
    page.get_by_label("customer is known").uncheck()
    expect(page.locator('[data-policy="loyalty_goodwill"] .undetermined')).to_be_visible()
    expect(condition(page, "loyalty_goodwill.loyalty_member")).to_contain_text("ask check_loyalty")

    page.get_by_label("Why (not) this resolution?").select_option("full_refund")
    expect(page.locator("#why")).to_contain_text("full_refund is not allowed")
    expect(page.locator("#why")).to_contain_text(
        "within_return_window needs order.days_since_purchase <= 30"
    )


def test_a_bad_fact_is_said_plainly(web_server: RunningServer, page: Page) -> None:
    open_workbench(page, web_server)
    page.get_by_label("order.days_since_purchase").fill("-4")
    expect(page.locator("#facts-error")).to_contain_text("order.days_since_purchase")


def test_try_a_rule_change_before_deploying(web_server: RunningServer, page: Page) -> None:
    open_workbench(page, web_server)
    rules = page.locator("#rules-list")
    for policy in load_rulebook().policies.values():
        expect(rules).to_contain_text(policy.clause)

    page.locator("#rule-file").select_option("standard_return.yaml")
    text = page.get_by_label("Rule file text")
    expect(text).to_have_value((REPO_ROOT / "rules" / "standard_return.yaml").read_text())
    text.fill(text.input_value().replace("<= 30", "<= 45"))
    page.get_by_label("Seeds per task").fill("10")
    page.get_by_role("button", name="Show impact").click()
    expect(page.locator("#diff-verdict")).to_contain_text("decisions change their best resolution")
    expect(page.locator("#diff-changes")).to_contain_text(
        "test order.days_since_purchase <= 30 -> order.days_since_purchase <= 45"
    )
    expect(page.locator("#diff-policies")).to_contain_text("blocked -> eligible")
    result = page.locator("#diff-result")
    expect(result.get_by_role("heading", name="Per task")).to_be_visible()
    expect(result.get_by_role("heading", name="Per policy")).to_be_visible()
    expect(result.locator("dl").first).to_contain_text("whose best resolution or amount changed")
    cases = page.locator("#diff-result > .case")  # only cases decided differently
    expect(cases.first).to_contain_text("after: full_refund")
    for before, after in (
        (box.locator("div").nth(0).inner_text(), box.locator("div").nth(1).inner_text())
        for box in cases.all()
    ):
        assert before.removeprefix("before: ") != after.removeprefix("after: "), before
    expect(result).not_to_contain_text("0.00 under escalation")
    deploy = page.locator("#deploy")
    expect(deploy).to_contain_text("rules/standard_return.yaml")
    expect(deploy).to_contain_text("ADMIN_TOKEN")  # this server's reload route is off
    expect(deploy.get_by_role("link", name="Download your standard_return.yaml")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "workbench_diff.png"), full_page=True)

    text.fill("policy: standard_return\nclause: [unclosed\n")
    page.get_by_role("button", name="Show impact").click()
    expect(page.locator("#diff-error")).to_contain_text("standard_return.yaml:2")
    expect(page.locator("#diff-error")).to_contain_text("never closed")

    page.get_by_role("button", name="Undo my edits").click()
    expect(text).to_have_value((REPO_ROOT / "rules" / "standard_return.yaml").read_text())
