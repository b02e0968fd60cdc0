"""The kernel agrees with a small, independent evaluator of the same rule files.

The evaluator below reads rules/*.yaml with plain PyYAML and evaluates each test in
Python; it shares no code with the kernel's parser, compiler, engine or aggregation.
"""

from __future__ import annotations

import functools
import math
import operator
from fractions import Fraction
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from novamart.kernel import default_kernel

RULES = Path(__file__).resolve().parents[2] / "rules"
OPS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}


@functools.cache
def load_reference():
    catalogue = yaml.safe_load((RULES / "resolutions.yaml").read_text())["resolutions"]
    policies = [
        doc
        for p in sorted(RULES.glob("*.yaml"))
        if p.name not in ("resolutions.yaml", "facts.yaml")
        for doc in yaml.safe_load_all(p.read_text())
    ]
    return catalogue, policies


def reference_condition(test: str, facts: dict) -> str:
    for op in ("not in", "==", "!=", "<=", ">=", "<", ">", "in"):
        left, sep, right = test.partition(f" {op} ")
        if sep:
            break
    kind, field = left.strip().split(".")
    observed = (facts.get(kind) or {}).get(field)
    if kind == "ticket" and kind in facts and observed is None:
        observed = False  # a read ticket that does not show a sign: it is not there
    if observed is None:
        return "unknown"
    return "pass" if OPS[op](observed, parse_value(right)) else "fail"


@functools.cache
def parse_value(text: str):
    return yaml.safe_load(text)


def reference_decision(facts: dict):
    catalogue, policies = load_reference()
    verdicts, granted = {}, {}
    fallback = None
    for policy in policies:
        if any(c["test"] == "no other policy applies" for c in policy["conditions"]):
            fallback = policy
            continue
        statuses = [reference_condition(c["test"], facts) for c in policy["conditions"]]
        if policy.get("applies_when") == "any condition holds":
            decided = "eligible" if "pass" in statuses else None
            decided = decided or ("undetermined" if "unknown" in statuses else "blocked")
        else:
            decided = "blocked" if "fail" in statuses else None
            decided = decided or ("undetermined" if "unknown" in statuses else "eligible")
        verdicts[policy["policy"]] = decided
        if decided == "eligible":
            granted[policy["policy"]] = policy["grants"]
    overriding = [p for p in policies if p.get("overrides") and p["policy"] in granted]
    if overriding:
        for name in set(granted) - {p["policy"] for p in overriding}:
            verdicts[name] = "blocked"
            del granted[name]
    if fallback:
        if granted:
            verdicts[fallback["policy"]] = "blocked"
        elif "undetermined" in verdicts.values():
            verdicts[fallback["policy"]] = "undetermined"
        else:
            verdicts[fallback["policy"]] = "eligible"
            granted[fallback["policy"]] = fallback["grants"]
    eligible = []
    for name, grants in granted.items():
        for g in grants:
            quality = g.get("quality", catalogue[g["resolution"]]["quality"])
            eligible.append((quality, g["resolution"], name, reference_amount(g, facts)))
    best = max(eligible, key=lambda e: e[0], default=None)
    return verdicts, {(r, p) for _, r, p, _ in eligible}, best


def reference_amount(grant: dict, facts: dict):
    rule = grant.get("amount", 0)
    if isinstance(rule, int | float):
        return float(rule)
    if isinstance(rule, str):
        kind, field = rule.split(".")
        value = (facts.get(kind) or {}).get(field)
        return None if value is None else half_up_cents(Fraction(str(value)))
    kind, field = rule["percent_of"].split(".")
    base = (facts.get(kind) or {}).get(field)
    by_kind, by_field = rule["by"].split(".")
    key = (facts.get(by_kind) or {}).get(by_field)
    if base is None or key not in rule["percent"]:
        return None
    return half_up_cents(Fraction(str(base)) * Fraction(str(rule["percent"][key])) / 100)


def half_up_cents(exact: Fraction) -> float:
    """The till's rounding, in exact rational arithmetic: half a cent goes up."""
    return math.floor(exact * 100 + Fraction(1, 2)) / 100


def maybe(strategy):
    return st.one_of(st.none(), strategy)


days = st.one_of(st.sampled_from([0, 29, 30, 31, 59, 60, 61, 89, 90, 91]), st.integers(0, 400))
prices = st.integers(0, 500_000).map(lambda cents: cents / 100)
orders = st.fixed_dictionaries(
    {"order_id": st.just("ORD-1")},
    optional={
        "days_since_purchase": days,
        "opened": st.booleans(),
        "price": prices,
        "category": st.sampled_from(["phone", "laptop", "earbuds", "smartwatch"]),
    },
)
customers = st.fixed_dictionaries(
    {"customer_id": st.just("CUST-1")},
    optional={"tier": st.sampled_from(["standard", "silver", "gold"])},
)
checks = st.fixed_dictionaries({"order_id": st.just("ORD-1")}, optional={"verified": st.booleans()})
SIGNS = ["battery_swelling", "burning_smell", "legal_threat", "account_takeover", "payment_fraud"]
tickets = st.one_of(
    st.just({"ticket_id": "T-1"}),
    st.fixed_dictionaries(
        {"ticket_id": st.just("T-1")}, optional=dict.fromkeys(SIGNS, st.booleans())
    ),
)
fact_sets = st.fixed_dictionaries(
    {},
    optional={"order": orders, "customer": customers, "defect_check": checks, "ticket": tickets},
)


@settings(max_examples=2500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fact_sets)
def test_kernel_agrees_with_reference(raw: dict):
    decision = default_kernel().decide_raw(raw)
    verdicts, eligible, best = reference_decision(raw)
    assert {n: v.status for n, v in decision.policies.items()} == verdicts
    assert {(g.resolution, g.policy) for g in decision.eligible} == eligible
    if best is None:
        assert decision.optimal is None
    else:
        assert decision.optimal.quality == best[0]
        assert decision.optimal.resolution == best[1]
        assert decision.optimal.amount == best[3]
