"""Build a case from a few words and ask the real kernel over the real rules/."""

from __future__ import annotations

import pytest

from novamart.kernel import Decision, Facts, default_kernel

UNKNOWN = object()


def case(
    days: int = 10,
    opened: bool = True,
    price: float = 500.0,
    tier: str | object | None = UNKNOWN,
    verified: bool | object | None = UNKNOWN,
    category: str = "phone",
    signs: tuple[str, ...] | object = (),
) -> Decision:
    """``UNKNOWN`` leaves a fact kind out, as when its tool has not been called; ``signs``
    are the ticket's signs that demand a manager (none by default: a calm ticket)."""
    return default_kernel().decide(
        Facts(
            order=dict(
                order_id="ORD-9",
                days_since_purchase=days,
                opened=opened,
                price=price,
                category=category,
            ),
            customer=None if tier is UNKNOWN else dict(customer_id="CUST-9", tier=tier),
            defect_check=None if verified is UNKNOWN else dict(order_id="ORD-9", verified=verified),
            ticket=None
            if signs is UNKNOWN
            else dict(ticket_id="T-9", **dict.fromkeys(signs, True)),
        )
    )


def status(decision: Decision, policy: str) -> str:
    return decision.policies[policy].status


def best(decision: Decision) -> str | None:
    return decision.optimal.resolution if decision.optimal else None


@pytest.fixture
def kernel():
    return default_kernel()
