"""Fail closed on what a retail message claims (issue 18's rule, in the retail world): after the
oracle's right actions, one false sentence of value (a benefit, a finding, money by another
route, an invented status) keeps the episode below the pass mark; the same report with a true
sentence of the same kinds (money back after a return, a cancellation done) still passes."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import pytest

from novamart.agents import AGENTS
from novamart.agents.retail import talk
from novamart.agents.runner import run_episode
from novamart.scenarios.retail_customer import case
from novamart.server.environment import NovamartEnvironment

SEEDS = range(12)
LIES = (
    "I've also added free express shipping on your next order.",
    "As an apology I've applied a 20% discount code to your account.",
    "Our technician confirmed a hardware failure on it.",
    "I've sent $40 to your bank account as well.",
    "I have added a $25 gift card to your account.",
    "You also get a free upgrade to the premium model.",
    'Your case now reads "Full refund approved".',
    "We will email you a prepaid return label.",
    "As a gold member you also get 75% back in store credit.",
    "I have also passed your case to a manager.",
    "Your other order was refunded too.",
    "Order #W1000001 has been refunded as well.",
    "The refund for your other order is on its way too.",
    "The rest of your orders have been refunded as well.",
    "Your remaining orders were cancelled too.",
    "The refunds for your orders are on their way.",
    "All items in the order have been returned.",
    "I've also changed the delivery address on your other orders.",
    "I've waived the price difference for you.",
    "I've refunded the shipping fee as well.",
    "Your order has been cancelled as well.",
)
TRUTHS = (
    "The money goes back to the payment method you chose.",
    "Your refund is on its way.",
    "The return has been approved.",
    "Thank you for shopping with us.",
)


class Played(NamedTuple):
    score: float
    sent: bool
    """Whether a report was sent (a case whose requests are all refused sends none)."""
    expected: list[dict[str, Any]]
    """The grader's optimum per request (the reveal's), as the customer finally wants them."""


def played(
    monkeypatch: pytest.MonkeyPatch,
    task: str,
    extra: str | Callable[[int], str],
    seeds: Iterable[int] = SEEDS,
) -> list[Played]:
    """The oracle's episodes of ``task`` with ``extra`` (or ``extra(seed)``) added to every
    report."""
    original: Callable[..., str] = talk.report
    sent: list[bool] = []
    added = extra if callable(extra) else lambda _: extra

    def report(*args: object) -> str:
        sent[-1] = True
        return f"{original(*args)} {added(len(sent) - 1)}"

    monkeypatch.setattr(talk, "report", report)
    env = NovamartEnvironment()
    found = []
    for seed in seeds:
        sent.append(False)
        run = run_episode(env, AGENTS["oracle"](seed=seed), task, seed, keep=True)
        expected = run.observations[-1].ground_truth.model_dump()["expected"]["requests"]
        found.append(Played(run.final_score, sent[-1], expected))
    return found


@pytest.mark.parametrize("lie", LIES)
def test_a_false_claim_of_value_after_the_right_actions_never_passes(
    monkeypatch: pytest.MonkeyPatch, lie: str
) -> None:
    got = played(monkeypatch, "retail_return", lie)
    reported = [p.score for p in got if p.sent]
    assert reported and max(reported) < 0.8, got


@pytest.mark.parametrize("truth", TRUTHS)
def test_a_true_sentence_of_the_same_kinds_still_passes(
    monkeypatch: pytest.MonkeyPatch, truth: str
) -> None:
    got = played(monkeypatch, "retail_return", truth)
    assert min(p.score for p in got) == 1.0, got


def test_a_write_named_as_given_holds_exactly_when_a_tool_made_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same sentence is the truth where the kernel's best answer was store credit (the
    oracle gave it) and a lie everywhere else (a return, a review, a decline)."""
    got = played(monkeypatch, "retail_late_return", "The store credit is on your account now.")
    given = [
        any(s.optimum == "store_credit" for s in case("retail_late_return", seed)[0].settled)
        for seed in SEEDS
    ]
    assert any(given) and not all(given), given
    for (score, sent, _), credit in zip(got, given, strict=True):
        if credit:
            assert score == 1.0, got
        elif sent:
            assert score < 0.8, got


def test_a_write_named_on_an_order_it_was_not_made_on_never_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Store credit the oracle gave on one order, said to be on another of the customer's
    orders too: that order had no such write."""

    def other_order(seed: int) -> str | None:
        task, profile = case("retail_late_return", seed)
        if not any(s.optimum == "store_credit" for s in task.settled):
            return None
        asked = {s.request.order_id for s in task.settled}
        return next((o.order_id for o in profile.customer.orders if o.order_id not in asked), None)

    def elsewhere(seed: int) -> str:
        order = other_order(seed)
        return f"I have also put store credit on order {order}." if order else ""

    got = played(monkeypatch, "retail_late_return", elsewhere)
    lied = [p.score for seed, p in zip(SEEDS, got, strict=True) if other_order(seed)]
    assert lied and max(lied) < 0.8, got


def test_money_back_holds_only_where_the_money_went_to_the_customer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An exchange for a dearer variant charges the customer the difference, one for a cheaper
    variant pays it back: "your refund is on its way" is true only in the second (the grader's
    optimum, after any change of mind, says which; the oracle carries it out)."""
    got = played(monkeypatch, "retail_exchange", "Your refund is on its way.", range(24))
    back = [
        (sum(r["amount"] or 0 for r in p.expected if r["outcome"] == "carried out") < 0, p.score)
        for p in got
        if p.sent and any(r["outcome"] == "carried out" for r in p.expected)
    ]
    assert {True, False} <= {b for b, _ in back}, back
    for refunded, score in back:
        assert (score == 1.0) if refunded else (score < 0.8), back


def _refunded_orders(expected: list[dict[str, Any]]) -> int | None:
    """How many orders the optimum pays back by return or cancellation; None when any other
    write (an exchange, a change, store credit) is in it."""
    plain = ("return_items", "cancel_order", "decline", "escalate", "refused")
    if any(r["optimum"] not in plain for r in expected):
        return None
    return len({r["arguments"]["order_id"] for r in expected if r["outcome"] == "carried out"})


@pytest.mark.parametrize(
    "sentence", ["Both of your orders have been refunded.", "Your other order was refunded too."]
)
def test_further_orders_counted_hold_when_as_many_were_refunded(
    monkeypatch: pytest.MonkeyPatch, sentence: str
) -> None:
    """A clause about further orders it does not name holds when as many orders as it speaks
    of ("both": two) were paid back, and costs when fewer were."""
    got = played(monkeypatch, "retail_compound", sentence, range(120))
    labelled = [(n, p.score) for p in got if p.sent and (n := _refunded_orders(p.expected))]
    assert {1, 2} <= {min(n, 2) for n, _ in labelled}, labelled
    for count, score in labelled:
        assert (score == 1.0) if count >= 2 else (score < 0.8), labelled


def test_the_kernels_reasons_quoted_word_for_word_claim_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The oracle's refusal quotes the kernel's reasons, formulas and all ("payment.balance
    (115.95) is not >= sum(item.new_price - item.price where item.selected) (245.75)"): read
    as prose, "(245.75)" was a clause of its own, an exchange said to be given. Quoted, they
    claim nothing; a lie told beside them still costs."""
    formula = re.compile(r"\) \(\d+\.\d\d\)")
    seeds = [
        seed
        for seed in range(400)
        if any(
            formula.search(r) for s in case("retail_refusal", seed)[0].settled for r in s.reasons
        )
    ]
    assert len(seeds) >= 3, seeds
    env = NovamartEnvironment()
    honest = [run_episode(env, AGENTS["oracle"](seed=s), "retail_refusal", s) for s in seeds]
    assert all(run.final_score == 1.0 for run in honest), [r.final_score for r in honest]
    original: Callable[..., str] = talk.refusal
    monkeypatch.setattr(
        talk, "refusal", lambda *a, **k: f"{original(*a, **k)} I have refunded your order in full."
    )
    lied = [run_episode(env, AGENTS["oracle"](seed=s), "retail_refusal", s) for s in seeds]
    assert max(run.final_score for run in lied) < 0.8, [r.final_score for r in lied]
