"""What a message claims, as data the grader can check against the episode record.

A resolution claim says a resolution was or will be carried out (``asserted``), is available
(``offered``) or is not (``denied``), with the amount the message ties to it. A fact claim
says something about one fact field of the case: a value (``order.opened == true``), a bound
(``order.days_since_purchase > 30``), or an approximate count ("about six weeks ago"). A
window claim ("outside our 30-day return window") is a bound whose field is the window's and
whose limit may be left unsaid; ``hints`` carry the words that say which window it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from novamart.kernel.conditions import FieldTest

Stance = Literal["asserted", "offered", "denied"]
APPROX = "~"
APPROX_SLACK = 4  # days either side of "about six weeks"
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


@dataclass(frozen=True, slots=True)
class ResolutionClaim:
    resolution: str
    stance: Stance
    amount: float | None
    clause: str
    hedged: bool = False
    """Under a frame denying that the writer knows or says it ("I can't say ..."): it never
    earns credit, and still costs when false."""
    policy: str | None = None
    """The policy it was named by ("a standard return isn't possible"): a denial of that
    policy's way to the resolution, not of the resolution another policy grants."""


@dataclass(frozen=True, slots=True)
class FactClaim:
    ref: str
    op: str
    value: Any
    clause: str
    hints: frozenset[str] = frozenset()
    window: bool = False
    reported: bool = False
    """Stated as what a check or someone found ("our technician confirmed a defect"): it also
    claims the finding was made, so before its tool has run it cannot be verified."""
    hedged: bool = False
    """As ResolutionClaim.hedged."""

    @property
    def kind(self) -> str:
        """The fact kind the claim is about ("defect_check" of "defect_check.verified")."""
        return self.ref.split(".", 1)[0]

    def negated(self) -> FactClaim | None:
        """The claim with its polarity reversed (None when that says nothing definite)."""
        if self.op == APPROX:
            return None
        return replace(self, op=_FLIP[self.op])

    def with_limit(self, limit: Any) -> FactClaim:
        return replace(self, value=limit)

    def allows(self, observed: Any) -> bool:
        """Whether ``observed`` is consistent with the claim."""
        if self.value is None:
            return True
        if self.op == APPROX:
            return abs(observed - self.value) <= APPROX_SLACK
        return _compare(observed, self.op, self.value)

    def fails(self, test: FieldTest) -> bool:
        """Whether every value the claim allows makes ``test`` fail: the claim states that
        the condition does not hold."""
        if test.ref != self.ref or self.value is None:
            return False
        return not any(test.holds(v) for v in self._witnesses(test))

    def holds(self, test: FieldTest) -> bool:
        """Whether every value the claim allows makes ``test`` pass."""
        if test.ref != self.ref or self.value is None:
            return False
        return all(test.holds(v) for v in self._witnesses(test))

    def _witnesses(self, test: FieldTest) -> list[Any]:
        """Values standing for everything the claim allows, as far as ``test`` can tell."""
        v = self.value
        if isinstance(v, bool | str):
            if self.op == "==":
                return [v]
            others = [x for x in _universe(v, test) if x != v]
            return others
        if self.op == APPROX:
            return list(range(int(v) - APPROX_SLACK, int(v) + APPROX_SLACK + 1))
        limit = test.value if not isinstance(test.value, tuple) else None
        points = {v, v - 1, v + 1}
        if isinstance(limit, int | float):
            points |= {limit - 1, limit, limit + 1}
        big = max(points) + 10_000
        return [p for p in (*sorted(points), -big, big) if _compare(p, self.op, v)]


def _universe(value: Any, test: FieldTest) -> list[Any]:
    if isinstance(value, bool):
        return [True, False]
    listed = test.value if isinstance(test.value, tuple) else (test.value,)
    return [*listed, f"{value}\0other"]


def _compare(a: Any, op: str, b: Any) -> bool:
    try:
        return {
            "==": a == b,
            "!=": a != b,
            "<": a < b,
            "<=": a <= b,
            ">": a > b,
            ">=": a >= b,
        }[op]
    except TypeError:
        return False


@dataclass(frozen=True, slots=True)
class ConditionalClaim:
    """A resolution promised or offered on a condition ("if you send it back I will refund
    the full $X"): true only when some facts the condition can bring make the rules grant
    it. ``given`` holds the facts the condition names (none: nothing it says changes the
    case, so the case as it is must grant it)."""

    resolution: str
    amount: float | None
    given: tuple[FactClaim, ...]
    clause: str


@dataclass(frozen=True, slots=True)
class PolicyClaim:
    """A policy of the rules said to cover the case (``covered``) or not ("you're covered by
    our defect policy"): true when the kernel's verdict on the case's facts agrees."""

    policy: str
    covered: bool
    clause: str
    hedged: bool = False


@dataclass(frozen=True, slots=True)
class UnverifiableClaim:
    """Something of consequence the grader cannot check: a benefit no rule grants (cash, a
    discount, free shipping), a finding or action it cannot resolve, or a clause not in
    English carrying an amount, a value word or a quotation. It costs like a false claim."""

    what: str
    clause: str
