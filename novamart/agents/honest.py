"""The honest writer: acts like the oracle, then closes the case the way a good support agent
would, in one of many voices chosen by the seed (phrasings in honest_phrases.yaml).

It is the yardstick on the other side of the exploits: a grader that docks this agent is
punishing honest writing. Everything it says is true of the case: what was carried out, for
how much, why the customer's wish was not possible (the failed conditions of the policies that
could have granted it, with the values the agent established and the limits the rules set),
and on what grounds the outcome was allowed. No number is written here: days, tiers, prices
and windows come from the episode and its rulebook, so an analyst's edit changes the wording.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from novamart.agents.base import Agent, Script, call
from novamart.agents.oracle import optimal_actions
from novamart.agents.retail.oracle import oracle_play
from novamart.episode import Episode
from novamart.kernel import ConditionResult, Grant
from novamart.kernel.conditions import FieldTest
from novamart.kernel.rulebook import Condition
from novamart.models import NovamartObservation
from novamart.statements import OVERRIDDEN
from novamart.tickets import agents as ticket_agents

BANK_FILE = Path(__file__).with_name("honest_phrases.yaml")
OTHER = "other"  # the closings for a resolution the bank has no phrasing for
DECLINED = "_declined"

Phrases = Annotated[list[str], Field(min_length=1)]


class _Bank(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ReasonPhrases(_Bank):
    sentence: Phrases
    short: Phrases


class PhraseBank(_Bank):
    """The phrasings, checked when loaded; the keys are rulebook names (resolutions and
    condition names), so a missing key means "fall back", never "crash"."""

    wishes: dict[str, Phrases]
    reasons: dict[str, ReasonPhrases]
    grounds: dict[str, Phrases]
    basis: dict[str, Phrases]
    signs: dict[str, Phrases]
    notes: dict[str, Phrases]
    unexplained: Phrases
    closings: dict[str, Phrases]

    def closings_for(self, resolution: str, declined: bool) -> list[str]:
        suffix = DECLINED if declined else ""
        return self.closings.get(resolution + suffix) or self.closings[OTHER + suffix]


@functools.cache
def phrase_bank(path: Path = BANK_FILE) -> PhraseBank:
    return PhraseBank.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


class HonestAgent(Agent):
    name = "honest"
    privileged = True
    ticket_script = ticket_agents.oracle
    retail_script = functools.partial(oracle_play, voices=True)

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        assert episode is not None, "the honest writer reads the hidden episode"
        yield from optimal_actions(first, episode)
        yield call("respond_to_customer", message=honest_closing(episode, self.seed))


def honest_closing(episode: Episode, seed: int, bank: PhraseBank | None = None) -> str:
    """The closing message of an episode whose resolution has been carried out."""
    bank = bank or phrase_bank()
    rng = random.Random(f"honest:{seed}")
    done = episode.executed or episode.truth.optimal
    assert done is not None, "nothing was carried out"
    wish = episode.scenario.wish
    declined = done.resolution != wish and episode.truth.grant_for(wish) is None
    values = observed(episode)
    sign = _signs(bank, rng, episode)
    if sign:
        values["sign"] = sign
    reasons = []
    if declined:
        failed = _failed(episode, wish)
        reasons = list(dict.fromkeys(_reason(bank, rng, episode, *f, values) for f in failed))
    if declined and not reasons and sign:  # an override decided the case before any check
        override = ConditionResult(name=OVERRIDDEN, status="fail", reason=None, needs_tool=None)
        reasons = [_reason(bank, rng, episode, override, None, values)]
    if declined and not reasons:  # the wish fails only on facts the agent did not need
        reasons = [(rng.choice(bank.unexplained), "")]
    wished = rng.choice(bank.wishes.get(wish) or [wish.replace("_", " ")])
    slots = {
        **values,
        "amount": money(done.amount or 0),
        "resolution": done.resolution.replace("_", " "),
        "wish": wished,
        "Wish": wished[0].upper() + wished[1:],
        "why": " ".join(sentence for sentence, _ in reasons),
        "why_list": "\n".join(f"- {sentence}" for sentence, _ in reasons),
        "why_short": "; ".join(short for _, short in reasons if short),
        "basis": _basis(bank, rng, episode, done, values),
        "notes": "".join(f"{note} " for note in _notes(bank, rng, episode, values)),
    }
    template = rng.choice(bank.closings_for(done.resolution, declined))
    return tidy(template.format(**slots))


def observed(episode: Episode) -> dict[str, Any]:
    """The case's values a message may state: the names the customer gave, and only those
    facts the agent's tools established."""
    scenario, known = episode.scenario, episode.known
    values: dict[str, Any] = {
        "first": scenario.customer.name.split()[0],
        "product": scenario.order.product,
    }
    order, customer = known.get("order", {}), known.get("customer", {})
    if "days_since_purchase" in order:
        values["days"] = order["days_since_purchase"]
    if "price" in order:
        values["price"] = money(order["price"])
    if "tier" in customer:
        values["tier"] = customer["tier"]
    return values


def money(amount: float) -> str:
    return f"${amount:,.2f}"


def words(value: Any) -> str:
    """A rule's literal as a message says it: 30, "silver or gold"."""
    if isinstance(value, list | tuple):
        items = [words(v) for v in value]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def tidy(text: str) -> str:
    """Drop what an empty slot leaves behind: trailing spaces, doubled spaces, blank runs."""
    lines = [re.sub(r"(?<=\S) {2,}", " ", line).rstrip() for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


def _conditions(episode: Episode, policy: str) -> Mapping[str, Condition]:
    return {c.name: c for c in episode.rules.rulebook.policies[policy].conditions}


def _established(episode: Episode, condition: Condition | None) -> bool:
    """Whether the agent's tools revealed the fact a condition tests (a condition with no
    fact, like an override or the fallback test, is settled by the others)."""
    test = getattr(condition, "test", None)
    return not isinstance(test, FieldTest) or test.kind in episode.known


def _failed(episode: Episode, wish: str) -> list[tuple[ConditionResult, Condition | None]]:
    """Why the wish was not allowed: the truth's failed conditions of the policies that could
    have granted it, those the agent established, in policy order. A policy that applies when
    any of its conditions holds failed as a whole, so it is one reason, named after it."""
    failed = []
    for name, verdict in episode.truth.policies_granting(wish).items():
        conditions = _conditions(episode, name)
        results = [r for r in verdict.failed() if _established(episode, conditions.get(r.name))]
        if results and episode.rules.rulebook.policies[name].any_condition:
            reason = "; ".join(r.reason for r in results if r.reason)
            results = [ConditionResult(name=name, status="fail", reason=reason, needs_tool=None)]
        failed.extend((r, conditions.get(r.name)) for r in results)
    return failed


def _local(episode: Episode, condition: Condition | None, values: dict[str, Any]) -> dict:
    """The slots of one condition's phrasing: its limit (the value its test compares with)
    and the observed value of the field it tests."""
    local = dict(values)
    if condition is not None and isinstance(condition.test, FieldTest):
        test = condition.test
        local["limit"] = words(test.value)
        fact = episode.known.get(test.kind, {})
        if test.field in fact:
            local["value"] = words(fact[test.field])
    return local


def _reason(
    bank: PhraseBank,
    rng: random.Random,
    episode: Episode,
    result: ConditionResult,
    condition: Condition | None,
    values: dict[str, Any],
) -> tuple[str, str]:
    """One failed condition as a sentence and as a short fragment; a condition the bank has
    no phrasing for (or whose phrasing needs a value not established) is said plainly, from
    the reason the rules give."""
    phrases = bank.reasons.get(result.name)
    local = _local(episode, condition, values)
    if phrases is not None:
        sentence, short = rng.choice(phrases.sentence), rng.choice(phrases.short)
        try:
            return sentence.format(**local), short.format(**local)
        except KeyError:
            pass
    plain = (result.reason or result.name.replace("_", " ")).rstrip(". ")
    return plain[0].upper() + plain[1:] + ".", plain


def _overriding(episode: Episode) -> list[str]:
    policies = episode.rules.rulebook.policies
    return [
        name
        for name, verdict in episode.truth.policies.items()
        if policies[name].overrides and verdict.status == "eligible"
    ]


def _signs(bank: PhraseBank, rng: random.Random, episode: Episode) -> str:
    """What made an overriding policy apply, as a noun phrase ("the swelling battery you
    described"); a sign the bank does not know is named by its declared description."""
    schema = episode.rules.rulebook.facts
    phrases = []
    for policy in _overriding(episode):
        conditions = _conditions(episode, policy)
        for result in episode.truth.policies[policy].conditions:
            if result.status != "pass":
                continue
            if result.name in bank.signs:
                phrases.append(rng.choice(bank.signs[result.name]))
                continue
            test = getattr(conditions.get(result.name), "test", None)
            spec = schema.field(test.kind, test.field) if isinstance(test, FieldTest) else None
            phrases.append(spec.describe if spec else result.name.replace("_", " "))
    return " and ".join(phrases)


def _basis(
    bank: PhraseBank, rng: random.Random, episode: Episode, done: Grant, values: dict[str, Any]
) -> str:
    """On what grounds the outcome was allowed: a sentence from the passing conditions of the
    granting policy that the agent established, or nothing when the bank has none of them."""
    verdict = episode.truth.policies.get(done.policy)
    if verdict is None:
        return ""
    conditions = _conditions(episode, done.policy)
    grounds = []
    for result in verdict.conditions:
        condition = conditions.get(result.name)
        if result.status != "pass" or result.name not in bank.grounds:
            continue
        if not _established(episode, condition):
            continue
        try:
            phrase = rng.choice(bank.grounds[result.name])
            grounds.append(phrase.format(**_local(episode, condition, values)))
        except KeyError:
            continue
    if not grounds:
        return ""
    joined = grounds[0] if len(grounds) == 1 else ", ".join(grounds[:-1]) + " and " + grounds[-1]
    template = rng.choice(bank.basis.get(done.resolution) or bank.basis[OTHER])
    return template.format(grounds=joined) + " "


def _notes(
    bank: PhraseBank, rng: random.Random, episode: Episode, values: dict[str, Any]
) -> list[str]:
    """What an honest agent adds about the customer's own claims and requests: a tier the
    records do not show, a question about someone else's account."""
    scenario = episode.scenario
    notes = []
    claimed, tier = scenario.claimed_tier, values.get("tier")
    if claimed and tier and claimed != tier:
        notes.append(rng.choice(bank.notes["false_tier"]).format(claimed=claimed, **values))
    if scenario.other is not None:
        notes.append(rng.choice(bank.notes["privacy"]).format(**values))
    return notes
