"""The leak test on the retail openings (issue 20 item 7): no phrase of a request's words in
the customer's opening, in its character's voice (greeting and frame included), predicts its
hidden outcome (carried out, declined, refused) more than 0.2 above the outcome's rate over
the task's requests.

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
from novamart.scenarios.personas import GREETINGS
from novamart.scenarios.retail_character import retail_character
from novamart.scenarios.retail_customer import Profile, case
from novamart.scenarios.retail_report import request_leaks
from novamart.scenarios.retail_requests import RetailTask
from novamart.scenarios.tasks import RETAIL_TASKS

SEEDS, REQUESTS = 200, 600
MORE_REQUESTS = {"retail_compound": 1200}
Case = tuple[RetailTask, Profile]


def sample(task: str) -> list[Case]:
    """Seeds 0, 1, ... of ``task`` until both bounds are met."""
    cases: list[Case] = []
    requests = MORE_REQUESTS.get(task, REQUESTS)
    for seed in itertools.count():
        if len(cases) >= SEEDS and sum(len(t.settled) for t, _ in cases) >= requests:
            return cases
        cases.append(case(task, seed))
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def samples() -> dict[str, list[Case]]:
    return {task: sample(task) for task in RETAIL_TASKS}


@pytest.mark.parametrize("task", RETAIL_TASKS)
def test_no_phrase_gives_a_requests_outcome_away(samples: dict[str, list[Case]], task: str) -> None:
    assert MARGIN == 0.2
    assert request_leaks(samples[task]) == []


def test_the_voice_is_in_the_words_read(samples: dict[str, list[Case]]) -> None:
    """The leak test reads the greetings and frames of every voice a task draws (a voice
    that followed the outcome would show as a leaking phrase)."""
    for task, cases in samples.items():
        tones = {p.tone for _, p in cases}
        assert tones == set(retail_character(task).voices), task
        assert {p.greeting for _, p in cases} == {g for t in tones for g in GREETINGS[t]}, task


def test_an_exchange_is_refused_as_often_whatever_the_product(
    samples: dict[str, list[Case]],
) -> None:
    """The gift card's balance is drawn against the difference (world.yaml
    ``gift_card_balance: drawn``): refusals are common, and the priciest product (whose
    differences a world-drawn balance covers least) is refused at about the base rate."""
    tasks = [t for t, _ in samples["retail_exchange"]]
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
    samples: dict[str, list[Case]],
) -> None:
    refused = [
        (t, s) for t, _ in samples["retail_exchange"] for s in t.settled if s.status == "refused"
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
