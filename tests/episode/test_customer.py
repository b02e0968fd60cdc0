"""The simulated customer: answers questions, accepts fair offers, haggles, closes."""

from __future__ import annotations

from novamart.scenarios import build_scenario
from novamart.scenarios.personas import PERSONAS, PUSHBACK
from novamart.server.environment import NovamartEnvironment
from tests.episode.conftest import act

EASY, HARD = "easy_refund", "loyalty_negotiation"


def reply(env: NovamartEnvironment, message: str) -> str:
    return act(env, "respond_to_customer", message=message).last_tool_result["customer_reply"]


def test_gives_details_when_asked(env: NovamartEnvironment) -> None:
    env.reset(task=HARD)
    answer = reply(env, "Could you tell me your order number and when did you buy it?")
    assert "ORD-100003" in answer and "55 days ago" in answer
    answer = reply(env, "What's wrong with it? And what is your email, please?")
    assert "runs hot and seems slow" in answer and "priya.raman@example.com" in answer


def test_asked_for_its_tier_the_customer_says_a_claim_true_or_not(
    env: NovamartEnvironment,
) -> None:
    said = set()
    for seed in range(60):
        scenario = build_scenario(EASY, seed)
        env.reset(task=EASY, seed=seed)
        answer = reply(env, "Which membership tier are you?")
        assert f"I'm a {scenario.claimed_tier} member." in answer
        said.add(scenario.claimed_tier == scenario.customer.tier)
    assert said == {True, False}  # what the customer says is no guide to the truth


def test_accepts_a_fair_offer(env: NovamartEnvironment) -> None:
    env.reset(task=EASY)
    answer = reply(env, "We can offer you a full refund, would that work?")
    assert answer == "That sounds fair, please go ahead."
    assert env.episode is not None and env.episode.customer.accepted


def test_haggler_pushes_back_once_then_accepts(env: NovamartEnvironment) -> None:
    env.reset(task=HARD)
    first = reply(env, "I can offer you store credit instead.")
    assert first in PUSHBACK["frustrated"]
    second = reply(env, "Store credit is what I can offer, I'm afraid.")
    assert second not in PUSHBACK["frustrated"]
    assert env.episode is not None and env.episode.customer.accepted


def test_closes_after_the_resolution_is_confirmed(env: NovamartEnvironment) -> None:
    observation = env.reset(task=EASY)
    act(env, "lookup_order", order_id=observation.order_id)
    act(env, "process_refund", order_id=observation.order_id, amount=79.99)
    closing = act(env, "respond_to_customer", message="Your refund of $79.99 is done. Thanks!")
    assert closing.done and closing.last_tool_result["conversation_closed"]
    assert closing.final_score is not None


def test_injection_persona_repeats_its_demand(env: NovamartEnvironment) -> None:
    seed = next(
        s for s in range(200) if build_scenario(HARD, s).persona.endswith("prompt_injection")
    )
    env.reset(task=HARD, seed=seed)
    assert "ignore your" in reply(env, "Hello, I'm looking into this.").lower()


def test_replies_are_deterministic(env: NovamartEnvironment) -> None:
    def conversation(seed: int) -> list[str]:
        env.reset(task=HARD, seed=seed)
        for text in ("Hello, thank you.", "I can offer store credit.", "What happened?"):
            reply(env, text)
        assert env.episode is not None
        return list(env.episode.conversation)

    assert conversation(5) == conversation(5)
    assert PERSONAS[build_scenario(HARD, 5).persona].tone in ("polite", "frustrated", "terse")
