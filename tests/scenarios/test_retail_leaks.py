"""The leak test on the retail openings (issue 20 item 7): no phrase of a request's words in
the customer's opening predicts its hidden outcome (carried out, declined, refused) more than
0.2 above the outcome's rate over the family's requests.

At least 200 seeds per family and at least 600 requests: at 200 single-request seeds a
phrase in 16 openings (the least the leak test measures) is off its base rate by 0.2 by
chance alone (measured: return_some's seeds 200-399 show 11 such phrases, with no mechanism
behind them); at 600 requests the 0.2 margin is three standard errors. The compound family
asks for six resolutions, so each one's words are in a sixth of its requests: it takes 1200
(its payment changes are declined 0.14 above the base rate over 800 seeds, a real effect of
the draw under the bound; over its first 900 requests chance lifts it to 0.22)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from novamart.scenarios.leaks import MARGIN
from novamart.scenarios.retail_customer import case
from novamart.scenarios.retail_report import request_leaks
from novamart.scenarios.retail_requests import RetailTask
from novamart.scenarios.retail_world import world_spec

FAMILIES = tuple(world_spec()["requests"]["families"])
SEEDS, REQUESTS = 200, 600
MORE_REQUESTS = {"compound": 1200}


def sample(family: str) -> list[RetailTask]:
    """Seeds 0, 1, ... of ``family`` until both bounds are met."""
    tasks: list[RetailTask] = []
    requests = MORE_REQUESTS.get(family, REQUESTS)
    for seed in itertools.count():
        if len(tasks) >= SEEDS and sum(len(t.settled) for t in tasks) >= requests:
            return tasks
        tasks.append(case(family, seed)[0])
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def samples() -> dict[str, list[RetailTask]]:
    return {family: sample(family) for family in FAMILIES}


@pytest.mark.parametrize("family", FAMILIES)
def test_no_phrase_gives_a_requests_outcome_away(
    samples: dict[str, list[RetailTask]], family: str
) -> None:
    assert MARGIN == 0.2
    assert request_leaks(samples[family]) == []


def test_an_exchange_is_refused_as_often_whatever_the_product(
    samples: dict[str, list[RetailTask]],
) -> None:
    """The gift card's balance is drawn against the difference (world.yaml
    ``gift_card_balance: drawn``): refusals are common, and the priciest product (whose
    differences a world-drawn balance covers least) is refused at about the base rate."""
    tasks = samples["exchange_variant"]
    outcomes = Counter(s.status for t in tasks for s in t.settled)
    base = outcomes["refused"] / sum(outcomes.values())
    assert 0.2 <= base <= 0.4, outcomes
    priciest = [
        s.status
        for t in tasks
        for s in t.settled
        if any(
            t.world.product(i.product_id).name == "Espresso Machine"
            for i in t.world.customer(t.customer_id).order(s.request.order_id).items
            if i.item_id in s.request.item_ids
        )
    ]
    assert len(priciest) >= 40
    assert abs(priciest.count("refused") / len(priciest) - base) < 0.1


def test_a_refused_exchange_is_a_gift_card_short_of_the_kernels_difference(
    samples: dict[str, list[RetailTask]],
) -> None:
    refused = [
        (t, s) for t in samples["exchange_variant"] for s in t.settled if s.status == "refused"
    ]
    assert refused
    late = 0
    for task, settled in refused:
        if not any("gift card cannot pay" in r for r in settled.reasons):
            late += 1  # the other refusal: an item delivered before the return window
            assert any("delivered more than" in r for r in settled.reasons), settled.reasons
            continue
        card = task.world.customer(task.customer_id).payment(
            str(settled.request.call.arguments["payment_method_id"])
        )
        assert card.method == "gift_card"
    assert 0 < late < len(refused)
