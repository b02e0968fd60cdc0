"""Policy variants: numbers moved within the bounds the rule files declare, the same variant
on every machine, compiled once and kept by content hash, and decided on like any rulebook."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from novamart.kernel import Facts, PolicyKernel, RulebookError, default_kernel, load_rulebook
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.kernel.variants import parameters, variant


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    target = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, target, ignore=shutil.ignore_patterns("*.md"))
    return target


def test_every_parameter_stays_within_its_declared_bounds() -> None:
    rulebook = default_kernel().rulebook
    declared = {name: p.vary for name, p in rulebook.policies.items() if p.vary}
    assert declared, "the rule files declare what variants may move"
    seen: dict[tuple[str, str], set[float]] = {}
    for number in range(200):
        for policy, values in parameters(rulebook, number).items():
            assert set(values) == set(declared[policy])
            for name, value in values.items():
                lo, hi = declared[policy][name]
                assert lo <= value <= hi and float(value).is_integer()
                seen.setdefault((policy, name), set()).add(value)
    assert all(len(values) > 5 for values in seen.values())  # they really move


def test_a_variant_is_the_same_on_every_machine_and_numbers_differ() -> None:
    rulebook = load_rulebook()
    assert parameters(rulebook, 7) == parameters(default_kernel().rulebook, 7)
    assert variant(rulebook, 7).version == variant(default_kernel().rulebook, 7).version
    assert parameters(rulebook, 7) != parameters(rulebook, 8)
    assert parameters(rulebook, 3) == {  # random.Random(str) is stable across platforms
        "defective_item": {"within_defect_window": 112},
        "loyalty_goodwill": {"within_goodwill_window": 50, "store_credit.silver": 50,
                             "store_credit.gold": 61},
        "standard_return": {"within_return_window": 29},
    }  # fmt: skip


def test_variants_are_compiled_once_and_kept() -> None:
    kernel = PolicyKernel()
    first = kernel.variant(11)
    assert kernel.variant(11) is first
    assert first.rulebook.version not in (kernel.version, kernel.variant(12).rulebook.version)
    assert first.runner.name.endswith(first.rulebook.version)  # content-hashed like a reload


def _window(kernel: PolicyKernel, number: int) -> int:
    test = kernel.variant(number).rulebook.policies["standard_return"].conditions[0].test
    return test.value


def test_decisions_reasons_and_clauses_follow_the_variant() -> None:
    kernel = PolicyKernel()
    number = next(n for n in range(100) if _window(kernel, n) < 30)
    window = _window(kernel, number)
    day = window + 1
    facts = Facts(
        order={"order_id": "ORD-1", "days_since_purchase": day, "opened": False,
               "price": 100.0, "category": "phone"},
    )  # fmt: skip
    assert kernel.decide(facts).grant_for("full_refund") is not None
    moved = kernel.variant(number).decide(facts)
    assert moved.grant_for("full_refund") is None
    assert f"window is {window} days" in " ".join(moved.blocking_reasons("full_refund"))
    assert f"within {window} days" in moved.policies["standard_return"].clause


def test_percentages_move_and_amounts_follow() -> None:
    kernel = PolicyKernel()
    facts = Facts(
        order={"order_id": "ORD-1", "days_since_purchase": 40, "opened": True,
               "price": 200.0, "category": "phone"},
        customer={"customer_id": "CUST-1", "tier": "gold"},
        defect_check={"order_id": "ORD-1", "verified": False},
    )  # fmt: skip
    amounts = {kernel.variant(n).decide(facts).grant_for("store_credit") for n in range(30)}
    credited = {g.amount for g in amounts if g is not None}
    assert len(credited) > 5 and all(120 <= a <= 180 for a in credited)  # 60..90 % of 200


def test_rules_without_bounds_have_no_variants(rules: Path) -> None:
    for name in ("standard_return.yaml", "defective_item.yaml", "loyalty_goodwill.yaml"):
        path = rules / name
        text = path.read_text()
        start = text.index("vary:")
        path.write_text(text[:start] + text[text.index("\nexamples:") + 1 :])
    kernel = PolicyKernel(rules)
    assert kernel.variant(5) is kernel.snapshot()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("within_return_window: [21, 40]", "within_windows: [21, 40]", "not a condition"),
        ("within_return_window: [21, 40]", "within_return_window: [40, 21]", "smallest first"),
        ("within_return_window: [21, 40]", "within_return_window: [21, 40.5]", "use whole"),
    ],
)
def test_bad_bounds_are_refused_with_their_file(
    rules: Path, old: str, new: str, message: str
) -> None:
    path = rules / "standard_return.yaml"
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(RulebookError) as caught:
        load_rulebook(rules)
    assert any(
        message in issue.message and issue.file.endswith("standard_return.yaml")
        for issue in caught.value.issues
    ), caught.value.issues


def test_a_percent_beyond_100_is_refused(rules: Path) -> None:
    path = rules / "loyalty_goodwill.yaml"
    path.write_text(
        path.read_text().replace("store_credit.gold: [60, 90]", "store_credit.gold: [60, 120]")
    )
    with pytest.raises(RulebookError, match="a percent stays within"):
        load_rulebook(rules)
