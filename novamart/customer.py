"""The simulated customer: deterministic for a scenario, driven by persona and progress.

It answers questions about its case (order number, what is wrong, when it was bought, its
tier - a ``false_tier`` persona claims gold), accepts a fair offer, and pushes back once on
anything but cash when the scenario says it haggles. Once a resolution has been carried out,
the next agent message closes the conversation, unless a haggling customer has not yet been
told the real reason a refund is impossible: then it pushes back once more first.
"""

from __future__ import annotations

import re

from novamart.episode import Episode, MessageRecord
from novamart.scenarios.personas import (
    ACCEPT,
    GRUDGING,
    INJECTION,
    PERSONAS,
    PUSHBACK,
    THANKS,
    WAITING,
    pick,
)
from novamart.statements import explained

ASKS: dict[str, re.Pattern[str]] = {
    "order": re.compile(r"\border (?:number|id)\b", re.I),
    "problem": re.compile(r"\b(?:what(?:'s| is) wrong|describe|what happened|symptom)", re.I),
    "when": re.compile(r"\b(?:when did|how long ago|date of purchase|purchase date)\b", re.I),
    "tier": re.compile(r"\b(?:tier|membership|member)\b", re.I),
    "email": re.compile(r"\bemail\b", re.I),
}


def asks(text: str) -> set[str]:
    """The details the message asks the customer for."""
    return {topic for topic, pattern in ASKS.items() if pattern.search(text)}


def reply(episode: Episode, record: MessageRecord) -> str:
    """The customer's answer to the agent's message; may close the conversation."""
    mood = episode.customer
    scenario = episode.scenario
    tone = PERSONAS[scenario.persona].tone
    index = (scenario.seed or 0) + mood.turns
    mood.turns += 1
    if episode.executed is not None:
        return _after_resolution(episode, tone, index)
    answers = [_detail(episode, topic) for topic in sorted(asks(record.text))]
    offers = {c.resolution for c in record.reading.resolutions if c.stance != "denied"}
    if offers:
        answers.append(_on_offer(episode, offers, tone, index))
    elif not answers:
        trait = PERSONAS[scenario.persona].trait
        bank = INJECTION if trait == "prompt_injection" and mood.turns == 1 else WAITING[tone]
        answers.append(pick(bank, index))
    return " ".join(answers)


def _after_resolution(episode: Episode, tone: str, index: int) -> str:
    mood = episode.customer
    scenario = episode.scenario
    assert episode.executed is not None
    disappointed = scenario.pushes_back and episode.executed.resolution != scenario.wish
    told_why = any(explained(episode).values())
    if disappointed and not told_why and not mood.pushed_back:
        mood.pushed_back = True
        return pick(PUSHBACK[tone], index)
    mood.closed = True
    return pick(GRUDGING[tone] if disappointed else THANKS[tone], index)


def _on_offer(episode: Episode, offers: set[str], tone: str, index: int) -> str:
    mood = episode.customer
    scenario = episode.scenario
    if scenario.wish in offers or not scenario.pushes_back or mood.pushed_back:
        mood.accepted = True
        return pick(ACCEPT[tone], index)
    mood.pushed_back = True
    return pick(PUSHBACK[tone], index)


def _detail(episode: Episode, topic: str) -> str:
    scenario = episode.scenario
    if topic == "order":
        return f"The order number is {scenario.order.order_id}."
    if topic == "problem":
        if scenario.symptom:
            return f"It {scenario.symptom}."
        return "Nothing is wrong with it, I just don't need it. It's still sealed."
    if topic == "when":
        return f"I bought it {scenario.order.days_since_purchase} days ago."
    if topic == "tier":
        return f"I'm a {scenario.claimed_tier or scenario.customer.tier} member."
    return f"My email is {scenario.customer.email}."
