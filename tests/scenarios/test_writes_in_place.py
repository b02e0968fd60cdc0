"""A write the kernel grants in place of a refused request (store credit for a late return)
takes the request's arguments (``instead_of``). A rule edit giving that write an argument the
request does not carry once loaded fine and then failed some resets mid-draw (an
ArgumentError on the seeds whose return was refused); it is now a problem ``rules check``
lists and every draw refuses alike, while edits that keep the write makeable pass."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.cli import app
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.retail_requests import build_task, writes_in_place_problems
from novamart.scenarios.retail_world import RetailRules, world_spec
from novamart.scenarios.tasks import RETAIL_DIR
from tests.rulefiles import give_store_credit_a_note

runner = CliRunner()


def edited(tmp_path: Path, note: str, goodwill_test: str | None = None) -> Path:
    """rules/retail with store_credit given a ``note`` argument declared as ``note``, and
    loyalty_goodwill's request test replaced by ``goodwill_test``."""
    rules = Path(shutil.copytree(RETAIL_DIR, tmp_path / "retail"))
    give_store_credit_a_note(rules, note)
    if goodwill_test is not None:
        goodwill = rules / "loyalty_goodwill.yaml"
        old = "test: request.resolution in [return_items, store_credit]"
        assert old in goodwill.read_text()
        goodwill.write_text(goodwill.read_text().replace(old, f"test: {goodwill_test}"))
    return rules


def late_returns(rules: RetailRules, seeds: int = 12) -> list[str]:
    """The optimum of each request of ``seeds`` late-return cases."""
    return [
        s.optimum for seed in range(seeds) for s in build_task("late_return", seed, rules).settled
    ]


def test_the_shipped_rules_and_their_variants_make_every_write_in_place() -> None:
    for variant in (None, 0, 1, 2, 3):
        assert writes_in_place_problems(RetailRules(variant=variant)) == ()


def test_a_write_in_place_without_its_argument_is_a_problem_before_any_draw(
    tmp_path: Path,
) -> None:
    rules = RetailRules(edited(tmp_path, "{type: text}"))
    problems = writes_in_place_problems(rules)
    assert len(problems) == 1
    assert "store_credit" in problems[0] and "return_items" in problems[0]
    assert "note" in problems[0] and "loyalty_goodwill" in problems[0]
    for family in world_spec(rules)["requests"]["families"]:  # every draw alike, seed 0 too
        with pytest.raises(ScenarioError, match="store_credit"):
            build_task(family, 0, rules)
    checked = runner.invoke(app, ["rules", "check", str(rules.folder)])
    assert checked.exit_code == 1, checked.output
    assert "note" in checked.output and "store_credit" in checked.output


def test_a_default_makes_the_write_again(tmp_path: Path) -> None:
    """The honest edit: the argument has a default, so the credit is written in place of a
    late return as before (and ``rules check`` passes)."""
    rules = RetailRules(edited(tmp_path, '{type: text, default: ""}'))
    assert writes_in_place_problems(rules) == ()
    assert "store_credit" in late_returns(rules)
    checked = runner.invoke(app, ["rules", "check", str(rules.folder)])
    assert checked.exit_code == 0, checked.output


def test_a_write_never_granted_in_place_needs_nothing_of_the_request(tmp_path: Path) -> None:
    """Goodwill granted only to a customer who asks for store credit: it is never the answer
    in place of a return, so the return need not carry its note."""
    rules = RetailRules(edited(tmp_path, "{type: text}", "request.resolution == store_credit"))
    assert writes_in_place_problems(rules) == ()
    assert "store_credit" not in late_returns(rules)
