"""Reading the policy handbook back into rules a script can apply (novamart.kb.handbook).

What a careful clerk does with the printed handbook: take each policy's conditions and
amounts as written, check them against the facts the lookups returned, and pick the best
allowed resolution in the handbook's own order. It reads numbers from the text, so a policy
variant's handbook gives a variant's windows; what it cannot look up (what the customer's
message shows) it takes as not the case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from novamart.kb.policies import FALLBACK_WORDS, OVERRIDES_WORDS, condition_words
from novamart.kernel.money import cents, percent_of

_RANKED = re.compile(r"^- (?P<name>[a-z ]+) \((?P<tool>[a-z_]+)\(")
_GRANT = re.compile(r"^- (?P<name>[a-z ]+): .* Amount: (?P<amount>.+)\.$")
_PERCENT = re.compile(r"(?P<percent>[\d.]+) percent for (?P<key>[a-z_]+)")
_NOT = "it is not the case that "
Facts = dict[str, Any]
"""``kind.field`` -> value, as the lookups returned them."""


@dataclass
class Condition:
    ref: str
    op: str
    value: Any

    def holds(self, facts: Facts) -> bool:
        if self.ref not in facts:
            return False  # what no lookup shows is taken as not the case
        seen = facts[self.ref]
        return {
            "==": lambda: seen == self.value,
            "!=": lambda: seen != self.value,
            "<=": lambda: seen <= self.value,
            ">=": lambda: seen >= self.value,
            "<": lambda: seen < self.value,
            ">": lambda: seen > self.value,
            "in": lambda: seen in self.value,
            "not in": lambda: seen not in self.value,
        }[self.op]()


@dataclass
class Policy:
    title: str
    any_condition: bool = False
    overrides: bool = False
    fallback: bool = False
    conditions: list[Condition] = field(default_factory=list)
    grants: list[tuple[str, str]] = field(default_factory=list)
    """(resolution, the amount as written)."""

    def applies(self, facts: Facts) -> bool:
        results = [c.holds(facts) for c in self.conditions]
        return any(results) if self.any_condition else bool(results) and all(results)


@dataclass
class Handbook:
    ranking: list[str]
    tools: dict[str, str]
    policies: list[Policy]

    def allowed(self, facts: Facts) -> list[tuple[str, float]]:
        """The resolutions the handbook allows on ``facts``, best first, with amounts."""
        applying = [p for p in self.policies if not p.fallback and p.applies(facts)]
        overriding = [p for p in applying if p.overrides]
        chosen = overriding or applying or [p for p in self.policies if p.fallback]
        found = [(r, amount(text, facts)) for p in chosen for r, text in p.grants]
        return sorted(found, key=lambda g: self.rank(g[0]))

    def amount_for(self, resolution: str, facts: Facts) -> float:
        """What the handbook would pay for ``resolution`` on ``facts`` (0 when nothing)."""
        texts = [t for p in self.policies for r, t in p.grants if r == resolution]
        return amount(texts[0], facts) if texts else 0.0

    def rank(self, resolution: str) -> int:
        return self.ranking.index(resolution) if resolution in self.ranking else len(self.ranking)


def read(text: str) -> Handbook:
    fields, ops = condition_words()
    by_words = {words: ref for ref, words in fields.items()}
    op_words = sorted(((w, op) for op, w in ops.items()), key=lambda item: -len(item[0]))
    ranking: list[str] = []
    tools: dict[str, str] = {}
    policies: list[Policy] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("## "):
            policies.append(Policy(title=line[3:]))
            continue
        if not policies:
            if match := _RANKED.match(line):
                name = match["name"].replace(" ", "_")
                ranking.append(name)
                tools[name] = match["tool"]
            continue
        policy = policies[-1]
        if line.startswith("This applies when"):
            section, policy.any_condition = "when", "any of" in line
        elif line.startswith("What you can get"):
            section = "grants"
        elif line == OVERRIDES_WORDS:
            policy.overrides = True
        elif line.startswith("- ") and section == "grants" and (match := _GRANT.match(line)):
            policy.grants.append((match["name"].replace(" ", "_"), match["amount"]))
        elif line.startswith("- ") and section == "when":
            condition = _condition(line[2:], by_words, op_words)
            if condition is None:
                policy.fallback = policy.fallback or line[2:] == FALLBACK_WORDS
            else:
                policy.conditions.append(condition)
    return Handbook(ranking, tools, policies)


def _condition(
    text: str, by_words: dict[str, str], op_words: list[tuple[str, str]]
) -> Condition | None:
    negated = text.startswith(_NOT)
    words = text.removeprefix(_NOT)
    if words in by_words:
        return Condition(by_words[words], "==", not negated)
    for phrase, op in op_words:
        left, found, right = words.partition(f" {phrase} ")
        if found and left in by_words:
            return Condition(by_words[left], op, _value(right, listed=op in ("in", "not in")))
    return None


def _value(text: str, listed: bool) -> Any:
    if listed:
        return tuple(_scalar(part.strip()) for part in text.split(","))
    return _scalar(text)


def _scalar(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def amount(text: str, facts: Facts) -> float:
    """An amount as the handbook writes it: a fact, percentages of a fact, a sum, nothing."""
    fields, _ = condition_words()
    by_words = {words: ref for ref, words in fields.items()}
    if text.startswith("$"):
        return cents(text[1:])
    percents = {m["key"]: float(m["percent"]) for m in _PERCENT.finditer(text)}
    base_words = text.rpartition(" of ")[2] if percents else text
    base = facts.get(by_words.get(base_words, ""))
    if not isinstance(base, int | float):
        return 0.0
    if not percents:
        return cents(base)
    key = next((v for v in facts.values() if isinstance(v, str) and v in percents), None)
    return percent_of(base, percents[key]) if key else 0.0
