"""Whether a grant carries an amount: a refund or a credit does, an exchange or a manager's
review does not (its rule says no payment). Every page and report asks here before it writes
an amount, so none shows ``exchange 0.00``."""

from __future__ import annotations

from novamart.kernel import Rulebook
from novamart.kernel.rulebook import Amount


def pays(amount: Amount) -> bool:
    """Whether the amount is a payment at all (a field, a percentage of one, or a constant)."""
    return bool(amount.field or amount.constant)


def grant_pays(rulebook: Rulebook, policy: str, resolution: str) -> bool:
    """Whether ``policy``'s grant of ``resolution`` carries an amount (unknown: it does, so an
    amount is never hidden by mistake)."""
    found = rulebook.policies.get(policy)
    grants = [g for g in found.grants if g.resolution == resolution] if found else []
    return any(pays(g.amount) for g in grants) or not grants
