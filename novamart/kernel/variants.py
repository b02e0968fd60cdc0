"""Policy variants: the same policies with their thresholds and percentages moved, within
bounds the rule files declare, so an agent cannot pass by memorising one set of numbers.

A policy file says what may move and how far::

    vary:
      within_return_window: [21, 45]   # the number this condition's test compares with
      store_credit.gold: [60, 90]      # the percent a grant pays for this value of its ``by``

A name several policies vary within the same bounds is drawn once (one window for returns and
exchanges).

Variant N draws every declared parameter from a generator seeded with N (the same variant on
any machine); the variant is a Rulebook like any other, content-hashed, so it compiles and
caches the way a reload does (PolicyKernel.variant). Reasons follow through ``{limit}``; a
clause that states a moved number says the new one.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from novamart.kernel.conditions import ExprTest, FieldTest

if TYPE_CHECKING:
    from novamart.kernel.rulebook import Policy, Rulebook, _Collector

_ORDERING = ("<", "<=", ">", ">=", "==", "!=")


def _whole(value: float) -> bool:
    return float(value).is_integer()


def _plain(value: float) -> str:
    return str(int(value)) if _whole(value) else f"{value:g}"


def _targets(policy: Policy) -> dict[str, tuple[float, str]]:
    """Every name ``vary`` may use in ``policy``: its base value and what it is."""
    found: dict[str, tuple[float, str]] = {}
    for cond in policy.conditions:
        test = cond.test
        if (
            isinstance(test, FieldTest)
            and test.op in _ORDERING
            and isinstance(test.value, int | float)
            and not isinstance(test.value, bool)
        ):
            found[cond.name] = (test.value, "threshold")
        elif isinstance(test, ExprTest) and test.limit is not None:
            found[cond.name] = (test.limit, "threshold")
    for grant in policy.grants:
        for key, percent in grant.amount.percent.items():
            found[f"{grant.resolution}.{key}"] = (percent, "percent")
    return found


def check(policies: dict[str, Policy], issues: _Collector, complete: bool = True) -> None:
    """Each ``vary`` entry names a number of its policy, with bounds of its kind (the bounds
    need not hold the number written: an analyst editing a window need not touch them).
    Unless the policies are ``complete``, a name not found is let pass."""
    for policy in policies.values():
        targets = _targets(policy)
        for name, (lo, hi) in policy.vary.items():
            where = f"policy {policy.name}, vary {name}"
            if name not in targets and not complete:
                continue
            if name not in targets:
                known = ", ".join(targets) or "none"
                issues.add(
                    policy.file,
                    (),
                    where,
                    "not a condition comparing a number, nor resolution.value of a percent "
                    f"amount (this policy's: {known})",
                )
                continue
            base, what = targets[name]
            if lo > hi:
                issues.add(
                    policy.file,
                    (),
                    where,
                    f"bounds [{_plain(lo)}, {_plain(hi)}]: the smallest first",
                )
            elif _whole(base) and not (_whole(lo) and _whole(hi)):
                issues.add(policy.file, (), where, f"{_plain(base)} is whole: use whole bounds")
            elif what == "percent" and not 0 <= lo <= hi <= 100:
                issues.add(policy.file, (), where, "a percent stays within [0, 100]")


def _draw(rng: random.Random, base: float, bounds: tuple[float, float]) -> float | int:
    lo, hi = bounds
    if _whole(base):
        return rng.randint(int(lo), int(hi))
    return round(rng.uniform(lo, hi), 2)


def parameters(rulebook: Rulebook, number: int) -> dict[str, dict[str, float | int]]:
    """What variant ``number`` sets: policy -> vary name -> value (declared order). A name
    several policies vary within the same bounds is one number of the store (the return
    window of returns and of exchanges): drawn once, the same in each."""
    rng = random.Random(f"policy-variant:{number}")
    drawn: dict[str, dict[str, float | int]] = {}
    shared: dict[tuple[str, tuple[float, float]], float | int] = {}
    for policy in rulebook.policies.values():
        targets = _targets(policy)
        values = {}
        for name, bounds in policy.vary.items():
            key = (name, tuple(bounds))
            if key not in shared:
                shared[key] = _draw(rng, targets[name][0], bounds)
            values[name] = shared[key]
        if values:
            drawn[policy.name] = values
    return drawn


def variant(rulebook: Rulebook, number: int) -> Rulebook:
    """Variant ``number`` of ``rulebook`` (itself when nothing may vary). Its examples,
    written for the stated numbers, are left out."""
    drawn = parameters(rulebook, number)
    if not drawn:
        return rulebook
    policies = {
        name: _moved(policy, drawn[name]) if name in drawn else policy
        for name, policy in rulebook.policies.items()
    }
    key = json.dumps([rulebook.version, drawn], sort_keys=True)
    version = hashlib.sha256(key.encode()).hexdigest()[:12]
    return rulebook.model_copy(update={"policies": policies, "version": version, "examples": []})


def _moved(policy: Policy, values: dict[str, float | int]) -> Policy:
    clause = policy.clause
    conditions = []
    for cond in policy.conditions:
        if cond.name in values and isinstance(cond.test, FieldTest):
            old, new = cond.test.value, values[cond.name]
            test = replace(cond.test, value=new)
            text = f"{test.ref} {test.op} {_plain(new)}"
            cond = cond.model_copy(update={"test": test, "text": text})
            clause = _restate(clause, old, new)
        elif cond.name in values and isinstance(cond.test, ExprTest):
            old, new = cond.test.limit, values[cond.name]
            moved = cond.test.with_limit(new)
            cond = cond.model_copy(update={"test": moved, "text": str(moved.expr)})
            clause = _restate(clause, old, new)
        conditions.append(cond)
    grants = []
    for grant in policy.grants:
        percent: dict[str, Any] = dict(grant.amount.percent)
        for key in percent:
            name = f"{grant.resolution}.{key}"
            if name in values:
                clause = _restate(clause, percent[key], values[name])
                percent[key] = values[name]
        amount = grant.amount.model_copy(update={"percent": percent})
        grants.append(grant.model_copy(update={"amount": amount}))
    return policy.model_copy(update={"clause": clause, "conditions": conditions, "grants": grants})


def _restate(clause: str, old: float, new: float) -> str:
    """The clause with the number ``old`` (written as a whole word) now ``new``."""
    pattern = rf"(?<![\w.]){re.escape(_plain(old))}(?![\w]|\.\d)"
    return re.sub(pattern, _plain(new), clause)
