"""The closed-book handbook of a rulebook of declared resolutions (rules/retail): every
policy, every required event, every effect's transition and every number of the rulebook is
in it, in plain words; an edit of the rules moves it; the shipped handbook is unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

from novamart.kb.handbook import handbook
from novamart.kb.phrases import words
from novamart.kernel import Rulebook, load_rulebook
from novamart.kernel import expressions as ex
from novamart.kernel.conditions import ExprTest, FieldTest
from novamart.kernel.rulebook import DEFAULT_RULES_DIR

RETAIL = DEFAULT_RULES_DIR / "retail"
GOLDEN = Path(__file__).with_name("golden") / "shipped_handbook.md"


def _retail() -> Rulebook:
    return load_rulebook(RETAIL)


def _numbers(rulebook: Rulebook) -> set[str]:
    """Every number the rulebook's resolutions, conditions, amounts and effects write."""
    found = {f"{spec.quality:g}" for spec in rulebook.resolutions.values()}
    trees: list[ex.Expr] = []
    for policy in rulebook.policies.values():
        for cond in policy.conditions:
            if isinstance(cond.test, ExprTest):
                trees.append(cond.test.expr)
            elif isinstance(cond.test, FieldTest) and isinstance(cond.test.value, int | float):
                found.add(f"{cond.test.value:g}")
        trees += [g.amount.expression for g in policy.grants if g.amount.expression is not None]
    for declared in rulebook.declared.values():
        for effect in declared.effects:
            trees += [effect.value, *([effect.where] if effect.where is not None else [])]
    for tree in trees:
        for node in ex.walk(tree):
            if isinstance(node, ex.Const) and ex.is_number(node.value):
                found.add(node.text.rstrip("%"))
    return found


def test_the_retail_handbook_states_every_policy_event_transition_and_number() -> None:
    rulebook = _retail()
    text = handbook(rulebook)
    for name, policy in rulebook.policies.items():
        assert f"## {words(name).capitalize()} policy" in text, name
        assert policy.clause in text, name
    for name, declared in rulebook.declared.items():
        for event in declared.requires:
            described = rulebook.facts.field("event", event)
            assert described is not None and f"{described.describe} ({event})" in text, event
        for effect in declared.effects:
            if isinstance(effect.value, ex.Const) and not isinstance(effect.value.value, bool):
                said = f"{words(effect.field)} becomes {effect.value.text.strip(chr(39))}"
                assert said in text, (name, effect.text)
        for argument in declared.arguments:
            assert f"  - {argument}: " in text, (name, argument)
    for number in _numbers(rulebook):
        assert number in text, number


def test_quantifiers_relations_and_the_decline_read_as_plain_words() -> None:
    text = handbook(_retail())
    named = "every item named in the request: its status is delivered and it was not sold as final"
    assert named in text
    assert "every item of the order: it was not sold as final" in text
    assert (
        "if the kind of payment method is gift_card, then the payment's balance is at least the "
        "total of the price of the variant asked for minus the price paid for each over the items "
        "named in the request"
    ) in text
    route = (
        "either the payment method is the payment method that paid for the order or the kind of "
        "payment method is gift_card"
    )
    assert route in text
    # an effect's transition and what it rules out afterwards ('modify items only once')
    modify = text.split("- modify items (", 1)[1].split("\n- ", 1)[0]
    assert "the order's status becomes pending (item modified)" in modify
    assert "Afterwards the order's status is pending (item modified), so " in modify
    assert "modify items" in modify.split("Afterwards", 1)[1]
    decline = text.split("- decline (decline(explanation))", 1)[1].split("\n- ", 1)[0]
    assert "correct refusal" in decline
    release = text.split("- release items (", 1)[1].split("\n## ", 1)[0]
    assert "carried out with cancel order, as its follow-up" in release


def test_an_edit_of_the_retail_rules_moves_the_handbook(tmp_path: Path) -> None:
    rules = tmp_path / "retail"
    shutil.copytree(RETAIL, rules, ignore=shutil.ignore_patterns("*.md"))
    path = rules / "resolutions.yaml"
    text = path.read_text()
    assert "order.status = 'pending (item modified)'" in text
    both, one = "requires: [identity_verified, confirmed]", "requires: [confirmed]"
    path.write_text(text.replace(both, one, 1))
    edited = handbook(load_rulebook(rules))
    ret = edited.split("- return items (", 1)[1].split("\n- ", 1)[0]
    assert "Carry it out only after: the customer said yes" in ret
    assert "identity_verified" not in ret


def test_the_shipped_handbook_is_unchanged() -> None:
    """Byte for byte what it was before declared rulebooks had their own words (re-render the
    golden file only for a deliberate edit of rules/)."""
    assert handbook(load_rulebook(DEFAULT_RULES_DIR)) == GOLDEN.read_text(encoding="utf-8")


def test_a_rulebook_of_collections_without_declared_calls_speaks_the_same_words() -> None:
    """tests/kernel/fixtures/retail_items: counts, any-quantifiers, percentages of sums and
    per-item policies, with every number the rules write."""
    rulebook = load_rulebook(Path(__file__).parents[1] / "kernel" / "fixtures" / "retail_items")
    text = handbook(rulebook)
    assert "- the number of items is at least 3" in text
    assert "- some item: the price paid for it is at least 100" in text
    assert "5 percent of the total of the price paid for each over the items" in text
    assert "This applies when all of these hold, decided for each item on its own:" in text
    for number in _numbers(rulebook):
        assert number in text, number
