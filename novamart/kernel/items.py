"""Decisions per member of a collection: return these two items, refuse that one, and why.

A policy that tests ``item.status`` (unquantified) speaks of the item in focus; deciding each
item puts each member of the collection in focus in turn (``Facts.focus``) and asks the kernel,
so every item gets a whole Decision (its verdicts, failed conditions and reasons) through the
same engine runs and memo as any case. Quantifiers (``all item: ...``) still read the whole
collection. The request's totals add up the best grant of each item, by resolution.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from novamart.kernel.decision import Decision
from novamart.kernel.examples import Decider
from novamart.kernel.facts import Facts
from novamart.kernel.money import cents

EACH_PREFIX = "each_"
"""An example expects per item under ``each_<kind>: {<id>: {optimal: ..., <policy>: ...}}``."""


class ItemDecision(BaseModel):
    """One member of the collection and the kernel's decision with it in focus."""

    model_config = ConfigDict(frozen=True)
    item: str
    decision: Decision


class EachDecision(BaseModel):
    """Every member's decision, and what the request comes to: per resolution, the items
    whose best grant it is and their summed amount (None while one of them is unknown)."""

    model_config = ConfigDict(frozen=True)
    kind: str
    items: list[ItemDecision]
    totals: dict[str, float | None]
    granted: dict[str, list[str]]
    refused: list[str]


def decide_each(rules: Decider, facts: Facts, kind: str) -> EachDecision:
    """Decide ``facts`` once per member of collection ``kind``; a ValueError when ``kind``
    is not a collection of the rulebook."""
    schema = rules.rulebook.facts
    spec = schema.kinds.get(kind)
    if spec is None or not spec.many:
        collections = [k for k, s in schema.kinds.items() if s.many]
        raise ValueError(
            f"{kind!r} is not a collection kind (collections: {', '.join(collections) or 'none'})"
        )
    facts = schema.check(facts)  # once, so the items' decisions share what reads no item
    members = facts.collection(kind) or ()
    # built without validating again: every decision comes from the kernel (as decide.py does)
    items = [
        ItemDecision.model_construct(
            item=str(member[spec.id_field]), decision=rules.decide(facts.focus(kind, i))
        )
        for i, member in enumerate(members)
    ]
    granted: dict[str, list[str]] = {}
    amounts: dict[str, list[float | None]] = {}
    refused = []
    for item in items:
        best = item.decision.optimal
        if best is None:
            refused.append(item.item)
            continue
        granted.setdefault(best.resolution, []).append(item.item)
        amounts.setdefault(best.resolution, []).append(best.amount)
    totals = {
        r: None if None in a else cents(sum(a))  # type: ignore[arg-type]
        for r, a in amounts.items()
    }
    return EachDecision.model_construct(
        kind=kind, items=items, totals=totals, granted=granted, refused=refused
    )
