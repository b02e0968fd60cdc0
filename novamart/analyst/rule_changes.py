"""What an edit changed in the rules, said per policy, condition and grant, and which
help-centre articles read differently because of it."""

from __future__ import annotations

from novamart.kb.policies import article_id, render_policy
from novamart.kernel import Rulebook
from novamart.kernel.rulebook import Grant, Policy


def rule_changes(old: Rulebook, new: Rulebook) -> list[str]:
    """One line per change, e.g. 'standard_return.within_return_window: test
    order.days_since_purchase <= 30 -> order.days_since_purchase <= 45'."""
    changes = [f"policy {name} added" for name in new.policies if name not in old.policies]
    changes += [f"policy {name} removed" for name in old.policies if name not in new.policies]
    for name, before in old.policies.items():
        after = new.policies.get(name)
        if after is not None:
            changes += _policy_changes(before, after)
    for name in sorted({*old.resolutions, *new.resolutions}):
        a, b = old.resolutions.get(name), new.resolutions.get(name)
        if a != b:
            changes.append(f"resolution {name}: {_show(a)} -> {_show(b)}")
    if old.facts != new.facts:
        changes.append("the fact declaration (facts.yaml) changed")
    return changes


def _policy_changes(before: Policy, after: Policy) -> list[str]:
    name = before.name
    changes = []
    if before.clause != after.clause:
        changes.append(f"{name}: clause {before.clause!r} -> {after.clause!r}")
    for attribute in ("any_condition", "overrides"):
        if getattr(before, attribute) != getattr(after, attribute):
            old, new = getattr(before, attribute), getattr(after, attribute)
            changes.append(f"{name}: {attribute} {old} -> {new}")
    old_conditions = {c.name: c for c in before.conditions}
    new_conditions = {c.name: c for c in after.conditions}
    for cond in new_conditions.values():
        if cond.name not in old_conditions:
            changes.append(f"{name}.{cond.name}: condition added ({cond.text})")
    for cond in old_conditions.values():
        other = new_conditions.get(cond.name)
        if other is None:
            changes.append(f"{name}.{cond.name}: condition removed ({cond.text})")
            continue
        if cond.text != other.text:
            changes.append(f"{name}.{cond.name}: test {cond.text} -> {other.text}")
        if cond.reason != other.reason:
            changes.append(f"{name}.{cond.name}: reason {cond.reason!r} -> {other.reason!r}")
    old_grants = {g.resolution: g for g in before.grants}
    new_grants = {g.resolution: g for g in after.grants}
    for resolution in sorted({*old_grants, *new_grants}):
        a, b = old_grants.get(resolution), new_grants.get(resolution)
        if _grant_key(a) != _grant_key(b):
            changes.append(f"{name}: grant {resolution} {_grant(a)} -> {_grant(b)}")
    return changes


def _grant_key(grant: Grant | None) -> tuple | None:
    return None if grant is None else (grant.quality, grant.amount)


def _grant(grant: Grant | None) -> str:
    if grant is None:
        return "(none)"
    amount = grant.amount
    if amount.percent:
        value = f"{amount.percent} % of {amount.field} by {amount.by}"
    else:
        value = amount.field or f"{amount.constant:g}"
    return f"(quality {grant.quality:g}, amount {value})"


def _show(spec: object) -> str:
    return "(none)" if spec is None else str(spec)


def changed_articles(old: Rulebook, new: Rulebook) -> list[str]:
    """The ids of the policy articles whose text differs (added or removed ones included)."""

    def texts(rulebook: Rulebook) -> dict[str, str]:
        return {
            article_id(name): render_policy(p, rulebook, []).body
            for name, p in rulebook.policies.items()
        }

    before, after = texts(old), texts(new)
    return sorted(i for i in {*before, *after} if before.get(i) != after.get(i))
