"""Money is counted in cents, rounded half up, the way a till does it.

Binary floats round 50 % of $79.99 to $39.99 (39.995 is stored as 39.99499…); every amount the
kernel grants, a tool checks or the grader reads goes through ``cents`` instead, so the same
figure comes out everywhere.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def cents(value: float | int | str | Decimal) -> float:
    """``value`` rounded half up to the cent (from its shortest decimal form)."""
    return float(Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP))


def percent_of(base: float, percent: float) -> float:
    """``percent`` % of ``base``, computed in decimal and rounded half up to the cent."""
    return cents(Decimal(str(base)) * Decimal(str(percent)) / 100)


def same_amount(a: float, b: float) -> bool:
    """Whether two amounts are the same number of cents."""
    return cents(a) == cents(b)
