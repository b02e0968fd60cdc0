"""Honest closings written from the kernel's own decision, in several natural forms (issue 18).

After the right actions, a closing states each failed condition of the policies that could
have granted the customer's wish (the observed value the agent established, the limit the
rule sets, in one of several phrasings per kind of field) and what was carried out, with its
amount. Everything it says is true, so a grader that docks it punishes honest writing; each
case is labelled with the form of every sentence, so a form the reader misreads shows as a
class of its own. The project's honest writer (novamart.agents.honest) draws on its own
phrase bank; these forms are independent of it.

Shared by tests/episode/test_fail_closed.py (a bounded sample) and
bench/bench_honest_closings.py (thousands of seeds).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from novamart.agents.base import Agent, Script, call
from novamart.agents.honest import money, words
from novamart.agents.oracle import optimal_actions
from novamart.episode import Episode
from novamart.kernel.conditions import FieldTest
from novamart.models import NovamartObservation
from novamart.statements import OVERRIDDEN

Form = Callable[[dict[str, str]], str]

DAY_FORMS: dict[str, str] = {
    "days_and_window": "You bought it {value} days ago and our {policy} window is {limit} days.",
    "days_outside": "It has been {value} days since you bought it, outside the {limit}-day "
    "{policy} window.",
    "window_passed": "The {limit}-day {policy} window has passed: you bought it {value} days ago.",
    "purchase_was": "Your purchase was {value} days ago, beyond our {limit}-day {policy} window.",
    "ordered_past": "You ordered it {value} days ago, which is past the {limit} days a {policy} "
    "allows.",
}
BOOL_FORMS: dict[tuple[str, bool], dict[str, str]] = {
    ("order.opened", True): {
        "opened": "The {product} has been opened.",
        "box_opened": "I can see the box has been opened.",
        "unsealed": "Your {product} is no longer sealed.",
    },
    ("defect_check.verified", False): {
        "no_fault": "Our technician's check found no fault with the {product}.",
        "passed": "The {product} passed all diagnostics.",
        "not_confirmed": "The defect check did not confirm a defect.",
        "working": "Our check shows it is working normally.",
    },
}
TIER_FORMS: dict[str, str] = {
    "tier_is": "Your loyalty tier is {value}, and {policy} needs {limit}.",
    "as_member": "As a {value} member, you are not eligible for {policy}, which needs {limit}.",
}
GRANT_FORMS: dict[str, dict[str, str]] = {
    "full_refund": {
        "processed": "I've processed a full refund of {amount} to your original payment method.",
        "refunded": "I've refunded {amount} to your card.",
    },
    "store_credit": {
        "issued": "I've issued {amount} in store credit to your account.",
        "added": "I've added {amount} of store credit to your NovaMart account.",
    },
    "exchange": {
        "arranged": "I've arranged an exchange: a replacement unit is on its way.",
        "replace": "We'll replace it with a new unit; the exchange is arranged.",
    },
    "escalate": {
        "escalated": "I've escalated your case to a manager, who will be in touch.",
        "passed": "I've passed your case to a manager for review.",
    },
}
OVERRIDE = "Because you reported {sign}, a manager must review your case first."


@dataclass(frozen=True)
class Closing:
    text: str
    forms: tuple[str, ...]
    """The form of each sentence ("days_and_window", "processed", ...): its class."""


def closing(episode: Episode, rng: random.Random) -> Closing:
    """A true closing for an episode whose optimal resolution was carried out."""
    done = episode.executed
    assert done is not None
    first = episode.scenario.customer.name.split()[0]
    sentences, forms = [f"Thank you for your patience, {first}."], ["thanks"]
    wish = episode.scenario.wish
    if done.resolution != wish and episode.truth.grant_for(wish) is None:
        for sentence, form in _reasons(episode, wish, rng):
            sentences.append(sentence)
            forms.append(form)
    grant = GRANT_FORMS.get(done.resolution)
    if grant:
        form = rng.choice(sorted(grant))
        sentences.append(grant[form].format(amount=money(done.amount or 0)))
        forms.append(f"{done.resolution}:{form}")
    return Closing(" ".join(sentences), tuple(forms))


def _reasons(episode: Episode, wish: str, rng: random.Random) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    policies = episode.rules.rulebook.policies
    for name, verdict in episode.truth.policies_granting(wish).items():
        conditions = {c.name: c for c in policies[name].conditions}
        for result in verdict.failed():
            if result.name == OVERRIDDEN:
                out += _override(episode, rng)
                continue
            test = getattr(conditions.get(result.name), "test", None)
            if isinstance(test, FieldTest) and test.kind in episode.known:
                stated = _stated(episode, name, test, rng)
                if stated is not None:
                    out.append(stated)
    return list(dict.fromkeys(out))


def _stated(
    episode: Episode, policy: str, test: FieldTest, rng: random.Random
) -> tuple[str, str] | None:
    value = episode.known[test.kind].get(test.field)
    slots = {
        "value": words(value),
        "limit": words(test.value),
        "policy": policy.replace("_", " "),
        "product": episode.scenario.order.product,
    }
    if isinstance(value, bool):
        forms = BOOL_FORMS.get((test.ref, value))
    elif isinstance(value, int) and test.field == "days_since_purchase":
        forms = DAY_FORMS
    elif isinstance(value, str):
        forms = TIER_FORMS
    else:
        forms = None
    if not forms:
        return None
    form = rng.choice(sorted(forms))
    return forms[form].format(**slots), f"{test.ref}:{form}"


def _override(episode: Episode, rng: random.Random) -> list[tuple[str, str]]:
    """The sign that sent the case to a manager before any other policy was weighed."""
    schema = episode.rules.rulebook.facts
    out = []
    for kind, record in episode.known.items():
        for field, value in record.items():
            spec = schema.field(kind, field)
            if value is True and spec is not None and spec.says_true:
                sign = rng.choice(list(spec.says_true))
                out.append((OVERRIDE.format(sign=f"a {sign}" if " " in sign else sign),
                            f"{kind}.{field}:override"))  # fmt: skip
    return out


class DecisionCloser(Agent):
    """The optimal actions, then a closing written from the kernel's decision."""

    name = "decision_closer"
    privileged = True

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.written: Closing | None = None

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        assert episode is not None
        yield from optimal_actions(first, episode)
        self.written = closing(episode, random.Random(f"closing:{self.seed}"))
        yield call("respond_to_customer", message=self.written.text)
