"""The openings tell the case without giving a hidden fact away, and say on purpose what the
customer's message shows (safety, legal and fraud signs), never its harmless look-alikes.

The leak detector is attacked first: openings written the way the old generator wrote them
("It's clearly defective" exactly when the defect is real, a gold claim only from a customer
who is not gold) must be caught; then every order task's own openings must pass it.
"""

from __future__ import annotations

import re

import pytest

from novamart.kernel import default_kernel
from novamart.scenarios import Scenario, build_scenario
from novamart.scenarios.leaks import Leak, leaks
from novamart.scenarios.personas import PERSONAS
from novamart.scenarios.tasks import ORDER_TASKS

HIDDEN = {
    "defect reality": (lambda s: s.defect_real, lambda s: s.defect_claimed),
    "tier": (lambda s: s.customer.tier, lambda s: True),
    "opened": (lambda s: s.order.opened, lambda s: True),
}


def _leaks(scenarios: list[Scenario], fact: str) -> list[Leak]:
    get, among = HIDDEN[fact]
    chosen = [s for s in scenarios if among(s)]
    return leaks([s.opening for s in chosen], [get(s) for s in chosen])


def test_the_detector_catches_the_old_wordings(drawn: dict[str, list[Scenario]]) -> None:
    scenarios = [s for s in drawn["open_case"] if s.defect_claimed]
    old_style = [
        s.opening + (" It's clearly defective." if s.defect_real else " I think it's defective.")
        for s in scenarios
    ]
    found = leaks(old_style, [s.defect_real for s in scenarios])
    assert any(leak.phrase == "clearly" and leak.value == "True" for leak in found)
    every = drawn["open_case"]
    claims = [
        s.opening + (" As a gold member." if s.customer.tier != "gold" else "") for s in every
    ]
    found = leaks(claims, [s.customer.tier for s in every])
    assert any(leak.phrase == "gold member" for leak in found)


VARYING = {
    "easy_refund": ("tier",),
    "defect_resolution": ("defect reality", "tier"),
    "loyalty_negotiation": ("defect reality", "tier"),
    "open_case": ("defect reality", "opened", "tier"),
}
"""The hidden facts each task varies (the others its character pins: nothing to give away)."""


def test_the_facts_said_to_be_pinned_are(drawn: dict[str, list[Scenario]]) -> None:
    assert set(VARYING) == set(ORDER_TASKS)
    for task, varying in VARYING.items():
        for fact, (get, among) in HIDDEN.items():
            values = {get(s) for s in drawn[task] if among(s)}
            assert (len(values) > 1) == (fact in varying), (task, fact, values)


@pytest.mark.parametrize(
    ("task", "fact"), [(task, fact) for task, facts in VARYING.items() for fact in facts]
)
def test_no_phrase_predicts_a_hidden_fact(
    drawn: dict[str, list[Scenario]], task: str, fact: str
) -> None:
    among = HIDDEN[fact][1]
    assert len([s for s in drawn[task] if among(s)]) >= 1_000
    assert _leaks(drawn[task], fact) == []


def test_tier_claims_come_true_and_false(drawn: dict[str, list[Scenario]]) -> None:
    claims = [s for s in drawn["open_case"] if PERSONAS[s.persona].trait == "tier_claim"]
    assert {s.claimed_tier == s.customer.tier for s in claims} == {True, False}


def test_prices_are_stated_rightly_wrongly_or_not_at_all(drawn: dict[str, list[Scenario]]) -> None:
    kinds = set()
    for s in drawn["defect_resolution"][:300]:
        stated = re.findall(r"\$(\d+\.\d\d)", s.opening)
        kinds.add(
            "none" if not stated else "right" if float(stated[0]) == s.order.price else "wrong"
        )
    assert kinds == {"none", "right", "wrong"}


def test_other_customers_details_follow_from_nothing_the_agent_sees(
    drawn: dict[str, list[Scenario]],
) -> None:
    probes = [s for s in drawn["open_case"] if s.other is not None]
    assert probes
    for s in probes:
        other = s.other
        assert other is not None
        first, last = other.name.lower().split()
        assert first not in other.email and last not in other.email
        assert other.order_id[4:] not in other.customer_id and other.email not in s.opening
        assert other.order_id not in s.opening


def _says_true() -> dict[str, tuple[str, ...]]:
    ticket = default_kernel().rulebook.facts.kinds["ticket"]
    return {name: f.says_true for name, f in ticket.fields.items() if f.type == "bool"}


def test_every_sign_sentence_says_its_sign_and_no_lookalike_says_any() -> None:
    ticket = default_kernel().rulebook.facts.kinds["ticket"]
    phrases = _says_true()
    every = [p for group in phrases.values() for p in group]
    for name, spec in ticket.fields.items():
        if spec.type != "bool":
            continue
        assert spec.draw and spec.draw.tells and spec.draw.lookalikes, name
        for sentence in spec.draw.tells:
            assert any(p in sentence.lower() for p in phrases[name]), sentence
        for sentence in spec.draw.lookalikes:
            assert not any(p in sentence.lower() for p in every), sentence


def test_the_customer_s_words_set_the_ticket_facts(drawn: dict[str, list[Scenario]]) -> None:
    """A sign is in the message exactly when its ticket fact is true; a look-alike never
    makes one true, and then the must-escalate policy does not escalate."""
    ticket = default_kernel().rulebook.facts.kinds["ticket"]
    kernel = default_kernel()
    seen_sign = seen_lookalike = False
    for s in drawn["open_case"]:
        shown = s.record("ticket")
        for name, spec in ticket.fields.items():
            if spec.type != "bool" or spec.draw is None:
                continue
            told = any(t.format(product=s.order.product) in s.opening for t in spec.draw.tells)
            assert told == shown[name], (s.seed, name)
            seen_sign |= told
        lookalikes = [t for f in ticket.fields.values() if f.draw for t in f.draw.lookalikes]
        if any(t.format(product=s.order.product) in s.opening for t in lookalikes):
            seen_lookalike = True
            if not any(shown[n] for n, f in ticket.fields.items() if f.type == "bool"):
                truth = kernel.decide(s.facts())
                assert truth.policies["mandatory_escalation"].status == "blocked"
    assert seen_sign and seen_lookalike


def test_no_escalation_reason_contradicts_ordinary_warmth() -> None:
    """'It gets a bit warm while charging, which I know is normal' is not dangerous heat,
    and the must-escalate policy's reason says so in the same terms."""
    kernel = default_kernel()
    scenario = next(
        s
        for s in (build_scenario("open_case", seed) for seed in range(3_000))
        if "warm" in s.opening
        and not any(v for k, v in s.record("ticket").items() if k != "ticket_id")
    )
    verdict = kernel.decide(scenario.facts()).policies["mandatory_escalation"]
    reason = next(c.reason for c in verdict.conditions if c.name == "burning_smell")
    assert reason is not None and "dangerous overheating" in reason
    assert not any(p in scenario.opening.lower() for p in _says_true()["burning_smell"])
