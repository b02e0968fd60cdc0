"""The cases ``rules diff`` measures a retail rule change on: collections of 1 to 5 items,
the quantifiers' boundaries (every member, none, exactly n), events present, absent and out
of order, each drawn from the rulebook's own declarations; and the impact of an edit of
rules/retail (a removed requires, a wider reason list) reported over them."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from novamart.analyst.drawn_plans import drawn_cases
from novamart.analyst.plan_cases import MAX_MEMBERS, plan_cases
from novamart.cli import app
from novamart.kernel import Rulebook, load_rulebook
from novamart.kernel.rulebook import DEFAULT_RULES_DIR, Example
from tests.rulefiles import edit

RETAIL = DEFAULT_RULES_DIR / "retail"
FIXTURE = Path(__file__).parents[1] / "kernel" / "fixtures" / "retail_world"
runner = CliRunner()


def _example(rulebook: Rulebook, name: str) -> Example:
    return next(e for e in rulebook.examples if e.name.startswith(name))


def _copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(RETAIL, tmp_path / "retail", ignore=shutil.ignore_patterns("*.md")))


def test_collections_grow_and_shrink_and_quantifiers_meet_their_boundaries() -> None:
    rulebook = load_rulebook(RETAIL)
    example = _example(rulebook, "two delivered items come back")  # I1, I2, I3 (final sale)
    cases = {c.variant: c for c in plan_cases(example, [rulebook])}
    assert cases[None].facts == example.facts
    sizes = {len(c.facts.collection("item") or ()) for c in cases.values()}
    assert sizes == set(range(1, MAX_MEMBERS + 1))
    five = cases["5 items"].facts.collection("item") or ()
    assert [m["item_id"] for m in five] == ["I1", "I2", "I3", "I3+1", "I3+2"]
    assert "3 items" not in cases  # the example's own size
    for share, finals in (("every", 3), ("no", 0), ("exactly 1", 1)):
        members = cases[f"{share} item.final_sale = true"].facts.collection("item") or ()
        assert sum(bool(m["final_sale"]) for m in members) == finals, share
    delivered = cases["exactly 1 item.status = delivered"].facts.collection("item") or ()
    assert [m["status"] for m in delivered] == ["delivered", "ordered", "ordered"]
    assert cases["event.confirmed = false"].facts.value("event", "confirmed") is False
    assert cases["payment.balance = 99.99"].facts.value("payment", "balance") == 99.99


def test_events_are_dropped_and_moved_out_of_order() -> None:
    rulebook = load_rulebook(RETAIL)
    example = _example(rulebook, "events arriving in order let the return through")
    cases = {c.variant: c.steps for c in plan_cases(example, [rulebook])}
    call = example.steps[2]
    assert cases["without event identity_verified (step 1)"] == ("confirmed", call)
    assert cases["event identity_verified (step 1) after the next call"] == (
        "confirmed",
        call,
        "identity_verified",
    )
    assert cases["event confirmed (step 2) after the next call"] == (
        "identity_verified",
        call,
        "confirmed",
    )
    fixture = load_rulebook(FIXTURE)
    planned = next(e for e in fixture.examples if e.before_each)
    dropped = {c.variant: c.before_each for c in plan_cases(planned, [fixture])}
    assert dropped["no confirmed before each call"] == ()


def test_a_count_threshold_is_met_at_n_minus_one_n_and_n_plus_one(tmp_path: Path) -> None:
    rules = _copy(tmp_path)
    edit(rules, "cancel_pending.yaml", 'test: "all item: not item.final_sale"',
         'test: "count(item where item.final_sale) < 2"')  # fmt: skip
    rulebook = load_rulebook(rules)
    example = _example(rulebook, "a final-sale item stops the cancellation")  # P1, P2 (final)
    labels = {c.variant for c in plan_cases(example, [rulebook])}
    assert {"exactly 1 item.final_sale = true", "exactly 2 item.final_sale = true"} <= labels
    assert "exactly 3 item.final_sale = true" not in labels  # more than the order holds


def test_diff_of_a_removed_requires_reports_the_events_it_no_longer_waits_for(
    tmp_path: Path,
) -> None:
    rules = _copy(tmp_path)
    edit(
        rules,
        "resolutions.yaml",
        "requires: [identity_verified, confirmed]",
        "requires: [identity_verified]",
    )  # fmt: skip (the first is return_items')
    fast = ["--no-tool-check", "--tasks", "easy_refund", "--seeds", "1"]
    result = runner.invoke(app, ["rules", "diff", str(RETAIL), str(rules), *fast])
    assert result.exit_code == 1, result.output
    text = result.output
    events = "events arriving in order let the return through"
    assert (
        f"{events}, without event confirmed (step 2)\n    in order: refused  ->  return_items 50"
        in text
    )
    assert f"{events}, event confirmed (step 2) after the next call" in text
    assert "two delivered items come back to the gift card, event.confirmed = false" in text
    assert "a collection's size, the members a quantifier speaks of, an event" in text
    # and on plans drawn from the world: a drawn return needs no yes any more
    drawn = [line for line in text.splitlines() if line.startswith("  drawn return_some")]
    assert drawn and all(line.endswith(", without event confirmed") for line in drawn)
    assert "drawn from the world" in text


def test_plans_are_drawn_from_the_world_with_their_events(tmp_path: Path) -> None:
    rulebook = load_rulebook(RETAIL)
    cases, note = drawn_cases(RETAIL, [rulebook], seeds=2)
    assert note == "" and cases
    for case in cases:
        items = case.facts.collection("item") or ()
        assert 1 <= len(items) <= MAX_MEMBERS
        assert f"({len(items)} items)" in case.label
        call = case.steps[-1]
        assert not isinstance(call, str)
        required = rulebook.declared[call.resolution].requires
        events = [s for s in case.steps if isinstance(s, str)]
        if case.variant is None:
            assert events == list(required)
        else:
            missing = case.variant.removeprefix("without event ")
            assert missing in required and missing not in events
        assert case.facts.value("event", "confirmed") is False  # nothing happened yet
    assert {c.variant for c in cases} == {None, "without event identity_verified",
                                          "without event confirmed"}  # fmt: skip
    assert drawn_cases(FIXTURE, [load_rulebook(FIXTURE)], seeds=2) == ([], "")  # no world
    broken = _copy(tmp_path)
    edit(broken, "world/world.yaml", "delivered: delivered", "delivered: shipped")
    cases, note = drawn_cases(broken, [load_rulebook(broken)], seeds=2)
    assert cases == [] and "names a value facts.yaml does not declare" in note


def test_diff_of_a_wider_reason_list_shows_it_over_every_order_size(tmp_path: Path) -> None:
    rules = _copy(tmp_path)
    listed = "test: request.reason in ['no longer needed', 'ordered by mistake'"
    edit(rules, "cancel_pending.yaml", f"{listed}]", f"{listed}, other]")
    fast = ["--no-tool-check", "--tasks", "easy_refund", "--seeds", "1"]
    result = runner.invoke(app, ["rules", "diff", str(RETAIL), str(rules), *fast])
    assert result.exit_code == 1, result.output
    other = "no reason given is the reason other, which is declined"
    for size, amount in ((2, 80), (5, 200)):
        assert f"{other}, {size} items\n    in order: decline 0  ->  cancel_order {amount}" in (
            result.output
        )
