"""The words of a policy kept in step with its tests.

A clause ("within 30 days") or a reason that writes a number by hand goes stale the day an
analyst edits the test beside it, and the help-centre article rendered from the clause with
it. So a clause may name a condition in braces, ``{within_return_window}``, to show the
value its test compares with, a reason may write ``{limit}`` for its own test's value; and
a number written out in either must be one that the policy's tests or amounts use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from novamart.kernel.conditions import ExprTest, FieldTest

_BRACES = re.compile(r"\{([^{}]*)\}")
_NUMBER = re.compile(r"(?<![\w\-.])\d+(?:\.\d+)?(?![\w])")


def plain(value: Any) -> str:
    """A value as a customer reads it: yes/no, 2-decimal money, 'silver or gold'."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, tuple):
        return " or ".join(map(plain, value))
    return str(value)


def render_clause(template: str, limits: dict[str, Any]) -> str:
    """Fill ``{condition}`` with the value that condition's test compares with."""
    return _BRACES.sub(
        lambda m: plain(limits[m.group(1)]) if m.group(1) in limits else m.group(0), template
    )


def clause_problems(
    template: str, limits: dict[str, Any], used: Iterable[float], unreadable: Iterable[str] = ()
) -> list[str]:
    """What is wrong with a clause: an unknown ``{name}``, or a number no test or amount
    of the policy uses. ``limits``: condition name -> tested value; ``unreadable``: the
    conditions whose test is itself at fault (reported on their own)."""
    skip = {*limits, *unreadable}
    problems = [
        f"clause uses {{{name}}}, which is not one of this policy's conditions with a tested "
        f"value ({', '.join(limits) or 'none'})"
        for name in _BRACES.findall(template)
        if name not in skip
    ]
    used = sorted({*used, *(n for value in limits.values() for n in numbers(value))})
    for stated in stale_numbers(template, used):
        hint = ", ".join(f"{{{n}}}" for n, v in limits.items() if numbers(v))
        problems.append(
            f"clause states {stated} but no test or amount of this policy uses it "
            f"(they use {_listing(used)}); write the number through its condition, "
            f"{hint or 'a {condition} placeholder'}, so the clause follows the test"
        )
    return problems


def reason_problems(template: str, test: FieldTest | ExprTest) -> list[str]:
    """A number written out in a reason that its own test does not compare with."""
    if isinstance(test, ExprTest):
        used = test.numbers()
        return [
            f"reason states {stated} but its test uses {_listing(used)}; write the fields "
            "in braces ({kind.field}) or {failed} so the reason follows the test"
            for stated in stale_numbers(template, used)
        ]
    used = numbers(test.value)
    return [
        f"reason states {stated} but its test compares with {_listing(used)}; "
        "write {limit} so the reason follows the test"
        for stated in stale_numbers(template, used)
    ]


def stale_numbers(text: str, used: Iterable[float]) -> list[str]:
    """The numbers written in ``text`` (outside braces) that are not among ``used``."""
    allowed = list(used)
    return [
        n
        for n in _NUMBER.findall(_BRACES.sub(" ", text))
        if not any(abs(float(n) - u) < 1e-9 for u in allowed)
    ]


def numbers(value: Any) -> list[float]:
    """The numbers a test compares with (none for text or true/false)."""
    values = value if isinstance(value, tuple) else (value,)
    return [float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool)]


def _listing(values: list[float]) -> str:
    return ", ".join(f"{v:g}" for v in values) if values else "no numbers"
