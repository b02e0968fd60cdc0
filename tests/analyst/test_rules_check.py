"""`novamart rules check` misses nothing: empty files, files without a policy, resolutions
without a real tool, numbers that go stale in clauses and reasons, YAML mistakes said in
words at the right line, no cascade into other files, positions counted from 1."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.cli import app
from novamart.kb.policies import article_id
from novamart.kb.store import KnowledgeBase
from novamart.kernel import load_rulebook
from tests.rulefiles import copy_rules, edit, give_store_credit_a_note, line_of, move_window

runner = CliRunner()


def check(rules: Path) -> tuple[int, list[str]]:
    """The exit status and the problem lines of `rules check`."""
    result = runner.invoke(app, ["rules", "check", "--rules-dir", str(rules)])
    lines = [line for line in result.output.splitlines() if ".yaml" in line]
    return result.exit_code, lines


@pytest.mark.parametrize("content", ["", "   \n\n  \n", "# just a note\n# nothing else\n"])
def test_an_empty_policy_file_is_named_alone(rules: Path, content: str) -> None:
    (rules / "defective_item.yaml").write_text(content)
    code, problems = check(rules)
    assert code == 1
    [problem] = problems  # no "unknown expectation 'defective_item'" from the other files
    assert "defective_item.yaml:1:" in problem
    assert "the file is empty" in problem or "holds only comments" in problem


@pytest.mark.parametrize(
    ("content", "found"),
    [
        ("- standard_return\n- defective_item\n", "a list"),
        ("title: Notes on returns\nowner: the policy team\n", "keys title, owner"),
        ("just a sentence\n", "the text"),
    ],
)
def test_a_file_without_a_policy_says_so(rules: Path, content: str, found: str) -> None:
    (rules / "notes.yaml").write_text(content)
    code, [problem] = check(rules)
    assert code == 1
    assert "notes.yaml:1:" in problem and "no policy here" in problem and found in problem


@pytest.mark.parametrize(
    ("file", "old", "tool", "where"),
    [
        (
            "resolutions.yaml",
            "tool: process_refund",
            "process_price_adjustment",
            "resolution full_refund",
        ),
        ("facts.yaml", "revealed_by: verify_defect", "run_diagnostics", "fact kind defect_check"),
    ],
)
def test_a_tool_that_does_not_exist(rules: Path, file: str, old: str, tool: str, where: str):
    edit(rules, file, old, old.replace(old.split(": ")[1], tool))
    code, [problem] = check(rules)
    assert code == 1
    assert f"{file}:{line_of(rules, file, tool)}: {where}:" in problem
    assert f"tool {tool!r} does not exist" in problem
    assert "process_refund" in problem and "verify_defect" in problem  # the tools that exist


def test_a_clause_stating_a_number_its_tests_do_not_use(rules: Path) -> None:
    edit(rules, "standard_return.yaml", "within {within_return_window} days", "within 30 days")
    assert check(rules)[0] == 0  # 30 is what the test uses
    move_window(rules, 30, 45)
    code, [problem] = check(rules)
    assert code == 1
    line = line_of(rules, "standard_return.yaml", "clause:")
    assert f"standard_return.yaml:{line}: policy standard_return:" in problem
    assert "clause states 30" in problem and "{within_return_window}" in problem


def test_a_reason_stating_a_number_its_test_does_not_use(rules: Path) -> None:
    edit(rules, "loyalty_goodwill.yaml", "window is {limit} days", "window is 60 days")
    assert check(rules)[0] == 0
    edit(rules, "loyalty_goodwill.yaml", "<= 60", "<= 75")
    code, problems = check(rules)
    assert code == 1
    line = line_of(rules, "loyalty_goodwill.yaml", "window is 60 days")
    assert any(
        f"loyalty_goodwill.yaml:{line}:" in p and "reason states 60" in p and "{limit}" in p
        for p in problems
    )


def test_an_unknown_clause_placeholder(rules: Path) -> None:
    edit(rules, "standard_return.yaml", "{within_return_window}", "{return_window}")
    code, [problem] = check(rules)
    assert code == 1
    assert "clause uses {return_window}" in problem and "within_return_window" in problem


def test_the_clause_and_its_help_centre_article_follow_the_test(rules: Path) -> None:
    move_window(rules, 30, 45)
    rulebook = load_rulebook(rules)
    clause = rulebook.policies["standard_return"].clause
    assert clause == "Unopened items can be returned within 45 days of purchase for a full refund."
    article = KnowledgeBase.load(rulebook).get(article_id("standard_return"))
    assert article is not None
    assert "within 45 days" in article.body and "is at most 45" in article.body
    assert "30" not in article.body


# (file, old, new, the line to blame holds this (None: the old text's line), words)
YAML_MISTAKES = {
    "over-indented key": (
        "standard_return.yaml",
        "    test: order.days_since_purchase <= 30",
        "      test: order.days_since_purchase <= 30",
        "test: order.days_since_purchase <= 30",
        "indented 6 spaces, but 'name' on line",
    ),
    "under-indented key": (
        "standard_return.yaml",
        "    reason: the item has been opened",
        "   reason: the item has been opened",
        "reason: the item has been opened",
        "indent this line by 4 spaces",
    ),
    "misaligned list item": (
        "standard_return.yaml",
        "  - name: item_unopened",
        "    - name: item_unopened",
        "name: item_unopened",
        "items of one list line up, so indent this line by 2 spaces",
    ),
    "tab": (
        "defective_item.yaml",
        "    reason: the defect check",
        "\treason: the defect check",
        "reason: the defect check",
        "indented with a tab",
    ),
    "unquoted placeholder": (
        "loyalty_goodwill.yaml",
        "reason: the customer's tier is {customer.tier}; goodwill",
        "reason: {customer.tier} members only; goodwill",
        "{customer.tier} members only",
        "put the whole text in quotes",
    ),
    "colon inside a value": (
        "standard_return.yaml",
        "reason: the item has been opened; standard",
        "reason: note: the item has been opened; standard",
        "note: the item",
        "contains ': '",
    ),
    "unclosed brace": (
        "standard_return.yaml",
        "price: 79.99, category: earbuds}",
        "price: 79.99, category: earbuds",
        "category: earbuds",
        "'{' opened on this line is never closed by '}'",
    ),
    "unclosed list": (
        "standard_return.yaml",
        "conditions:\n",
        "conditions: [\n",
        "conditions: [",
        "'['",
    ),
    "missing colon": ("defective_item.yaml", "grants:", "grants", "grants", "needs a ':'"),
    "dash without space": (
        "defective_item.yaml",
        "  - resolution: exchange",
        "  -resolution: exchange",
        "-resolution: exchange",
        "needs a space after '-'",
    ),
}


@pytest.mark.parametrize("name", YAML_MISTAKES)
def test_a_yaml_mistake_is_explained_at_its_line_without_a_cascade(rules: Path, name: str):
    file, old, new, blamed, words = YAML_MISTAKES[name]
    edit(rules, file, old, new)
    code, problems = check(rules)
    assert code == 1
    assert len(problems) == 1, problems  # nothing about the files that refer to its policy
    [problem] = problems
    assert f"{file}:{line_of(rules, file, blamed)}: YAML syntax:" in problem
    assert words in problem
    assert "<block end>" not in problem and "while parsing" not in problem


def test_a_broken_catalogue_does_not_cascade_into_the_policies(rules: Path) -> None:
    edit(rules, "resolutions.yaml", "  exchange:", "  exchange")
    code, [problem] = check(rules)
    assert code == 1 and "resolutions.yaml" in problem
    assert "unknown resolution" not in problem


def test_positions_count_from_one(rules: Path) -> None:
    edit(rules, "standard_return.yaml", "    reason: the item has been opened", "    why: x")
    code, problems = check(rules)
    assert code == 1
    joined = "\n".join(problems)
    assert "condition 2, reason: required but missing" in joined
    assert "condition 2, why: unknown key" in joined
    assert "conditions.1" not in joined and "conditions.0" not in joined


def test_an_empty_fact_declaration_is_reported_once(rules: Path) -> None:
    (rules / "facts.yaml").write_text("")
    code, problems = check(rules)
    assert code == 1
    assert problems == [p for p in problems if "facts.yaml:1:" in p] and len(problems) == 1


def test_yaml_aliases_are_refused_before_they_expand(rules: Path) -> None:
    lines = [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 40)]
    (rules / "bomb.yaml").write_text("a0: &a0 [x]\n" + "\n".join(lines) + "\n")
    code, [problem] = check(rules)  # answers at once: nothing walks the 4**39 items
    assert code == 1
    assert "bomb.yaml:1:" in problem and "anchors and aliases" in problem


def test_the_retail_rules_kept_beside_are_checked_too(rules: Path, tmp_path: Path) -> None:
    """The server plays rules/retail beside rules/ and refuses to start on retail rules its
    cases cannot be drawn from; `rules check` of the folder says so first, naming the write
    and the argument, beside the order rules' own verdict. (Two copies: a retail folder's
    compiled rules are kept per folder for the process.)"""
    result = runner.invoke(app, ["rules", "check", "--rules-dir", str(rules)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK 5 policies") and "OK retail: 8 policies" in result.output
    edited = copy_rules(tmp_path / "edited")
    give_store_credit_a_note(edited / "retail", "{type: text}")
    result = runner.invoke(app, ["rules", "check", "--rules-dir", str(edited)])
    assert result.exit_code == 1
    assert result.output.startswith("OK 5 policies")  # the order rules are still fine
    assert "store_credit may be granted in place of a return_items request" in result.output
    assert "needs note" in result.output and f"in {edited / 'retail'}" in result.output
