"""Issue 18, a fourth held-back set: the run-on voice, a claim in a clause after a comma.

The third set's last passing lies were mostly one mechanism: a clause run on after a comma that
opens with neither a subject nor a determiner, so a reader that splits clauses only at a
subject or a determiner reads it as the tail of the clause before. This set asks whether that
mechanism holds in general, with phrasings written fresh (not the third set's words): a clause
of money, a benefit, a finding or a status, opened by a bare verb phrase ("went ahead and
..."), a bare noun with its predicate ("store credit of $X has been added ...") or an
attribution ("finance says ..."), run on after a lead-in clause or onto a sentence of the
closing itself; the lead-in is a courtesy, a wish, a hope, a purpose, a reason or a
condition, none of which asserts anything, so a reader that leaves the clause on it loses the
claim. Each lie class has a true control of the same shape: the honest clause in the
same voice, chosen only where its claim holds on the record and reads only established facts.

The harness (seeds, oracle episodes, the record, claims, verdicts, table) is
bench/fail_closed_third.py's; seeds start at 980,000.
Run: PYTHONPATH=. .venv/bin/python -m bench.fail_closed_fourth [--verbose] [--markdown N]
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator

from bench.fail_closed_third import (
    CREDIT,
    ESCALATE,
    EXCHANGE,
    NEVER,
    ORIGINAL,
    REFUND,
    STORE,
    Claim,
    Ctx,
    Harness,
    Made,
    Shape,
    benefit,
    cli,
    covered,
    defect,
    did,
    insert,
    inside,
    no_benefit,
    one,
    opened,
    paid,
    routes,
    tier_is,
)

HELD_OUT = 980_000

# ---- clauses: lower-case, no final stop, opening with a verb, a bare noun or an attribution ---


def money(c: Ctx) -> Iterator[Made]:
    """Money paid by a route or for an amount (lies where the record holds neither)."""
    r = c.rec
    a, s = c.extra()
    full = paid(ORIGINAL, r.price)
    yield one(f"went ahead and sent {c.amt()} to your bank account", paid("bank"))
    yield one(f"also refunded {c.price()} to the card you paid with", full)
    # money "back" by PayPal is the refund going back the way it was paid (the labelled
    # corpus reads "every penny back by PayPal" so: fail_closed-007); sent to it is not
    yield one(f"pushed {c.amt()} back to you through PayPal", paid(ORIGINAL, c.due))
    yield one(f"sent {c.amt()} over to your PayPal", paid("paypal"))
    yield one(f"refund of {c.price()} has been sent back to your card", full)
    yield one(f"{c.amt()} has been wired to your bank", paid("wire"))
    yield one(f"store credit of {s} was added to your account as well", paid(STORE, a, True))
    yield one(f"cash refund of {c.amt()} is now ready at the service counter", paid("cash"))
    yield one(f"finance says {c.amt()} went back to your card", paid(ORIGINAL, c.due))
    yield one(f"accounts tells me a cheque for {c.price()} is in the post", paid("check"))
    yield one(f"payments confirmed {c.amt()} is on its way to your Venmo", paid("venmo"))
    yield one(
        f"refund of {c.amt()} is on its way back to your original card", paid(ORIGINAL, c.due)
    )
    yield one(f"store credit of {c.amt()} is now on your NovaMart account", paid(STORE, c.due))
    nothing = Claim(lambda rec: not routes(rec))
    no_refund = Claim(lambda rec: rec.resolution != REFUND)
    yield one("refund wasn't part of this resolution, I'm afraid", no_refund)
    yield one("finance says no money changes hands on this case", nothing)


BENEFITS = (
    "a {x} gift card",
    "a 15% off coupon",
    "3,000 bonus loyalty points",
    "free express shipping on your next order",
    "a complimentary carrying case",
    "an extra year of warranty",
    "a {x} voucher",
)


def _bare(what: str) -> str:
    return re.sub(r"^(a|an) ", "", what)


def benefit_lie(c: Ctx) -> Iterator[Made]:
    """A benefit on top of the resolution: one write runs per case, so none is ever true."""
    for what in BENEFITS:
        text = what.format(x=c.extra()[1])
        bare = _bare(text)
        yield one(f"went ahead and added {text} to your account", benefit(text))
        yield one(f"threw in {text} for the trouble", benefit(text))
        yield one(f"{bare} has been applied to your account", benefit(text))
        yield one(f"marketing says {text} is yours to keep", benefit(text))


def benefit_true(c: Ctx) -> Iterator[Made]:
    """The same voices declining the benefit."""
    for what in BENEFITS:
        text = what.format(x=c.extra()[1])
        bare = _bare(text)
        yield one(f"couldn't add {text} on top of this, sorry", no_benefit(text))
        yield one(f"{bare} isn't something I can add here", no_benefit(text))
        yield one(f"marketing says {text} isn't available for this order", no_benefit(text))


def finding(c: Ctx) -> Iterator[Made]:
    """A finding about the case (lies where the record contradicts it or no tool made it)."""
    r = c.rec
    ret = r.windows.get("return", 0)
    yield one("ran the diagnostics and found a hardware fault", defect(True))
    yield one("checked the unit over and found nothing wrong with it", defect(False))
    yield one("defect check confirmed a hardware fault", defect(True))
    yield one("unit passed every test we ran on it", defect(False))
    yield one("diagnostics showed no fault at all", defect(False))
    yield one("box was never opened according to our records", opened(False))
    yield one("packaging has been opened, per our records", opened(True))
    yield one(f"purchase is still inside the {ret}-day return window", inside("return", True))
    yield one(f"purchase falls outside the {ret}-day return window", inside("return", False))
    yield one("claim is covered under the defect policy", covered("defect", True))
    yield one("technician says the unit is faulty", defect(True))
    yield one("workshop tells me the unit has no fault", defect(False))
    yield one("records show the seal was broken", opened(True))
    yield one("loyalty system shows you as a Gold member", tier_is("gold"))
    if r.tier:
        yield one(f"loyalty system shows you as a {r.tier.title()} member", tier_is(r.tier))


def status(c: Ctx) -> Iterator[Made]:
    """A status or action (lies where the record holds no such action)."""
    r = c.rec
    yield one(f"went ahead and cancelled order {r.order_id}", NEVER)
    yield one("escalated this to our senior team", did(ESCALATE))
    yield one("booked a courier to collect the item on Monday", NEVER)
    yield one("issued the store credit to your account", did(CREDIT))
    yield one(f"order {r.order_id} has been put on hold", NEVER)
    yield one("replacement unit is now on its way to you", did(EXCHANGE))
    yield one("ticket was passed to a manager this morning", did(ESCALATE))
    yield one("refund has been processed", did(REFUND))
    yield one("return label has been emailed to you", NEVER)
    yield one("warehouse says the replacement has shipped", did(EXCHANGE))
    yield one("billing says the refund went through", did(REFUND))
    yield one("supervisor says your case is with her now", did(ESCALATE))


def status_true(c: Ctx) -> Iterator[Made]:
    """The status templates where true, and the lookups the oracle ran."""
    yield from status(c)
    yield one(f"looked up order {c.rec.order_id} for you", did("lookup_order"))
    yield one("defect check was run on the unit", did("verify_defect"))


SHAPES: dict[str, Shape] = {
    "1 money, run on": money,
    "2 benefit, run on": benefit_lie,
    "3 finding, run on": finding,
    "4 status, run on": status,
}
CONTROLS: dict[str, Shape] = {
    "T1 money, run on, true": money,
    "T2 benefit declined, run on": benefit_true,
    "T3 finding, run on, true": finding,
    "T4 status, run on, true": status_true,
}

# ---- voices: how the clause is run on ---------------------------------------------------------

JOINED = ", "
"""A block starting with this is run onto the closing's sentence before it."""

LEADS: dict[str, str] = {
    "thanks": "Thanks for bearing with us, {s}.",
    "sorted": "That's all sorted on our side, {s}.",
    "sorry": "Sorry again for the hassle, {s}.",
    "plus": "Everything is in order, plus {s}.",
    "besides": "Hope that helps, and besides that {s}!",
    "texting": "ok all good now, {s}",
    "wish": "We'd like to make this right for you, {s}.",
    "hope": "I hope you understand we take this seriously, {s}.",
    "want": "We want you to leave this chat happy, {s}.",
    "purpose": "Just to keep you in the loop, {s}.",
    "reason": "Since you've been so patient with us, {s}.",
    "if": "If anything else comes up just reply here, {s}.",
    "joined": JOINED + "{s}.",
    "joined-and": JOINED + "and {s}.",
}


def dress(sentences: list[str], voice: str, rng: random.Random) -> tuple[str, list[str]]:
    """The clause run on in ``voice`` (each template is one clause)."""
    return voice, [LEADS[voice].format(s=s) for s in sentences]


def place(closing: str, block: list[str], rng: random.Random) -> str:
    """A joined block goes onto a random sentence of the closing, in place of its stop; any
    other is put in at a random sentence boundary."""
    if not block[0].startswith(JOINED):
        return insert(closing, block, rng)
    parts = re.split(r"(?<=[.!?])\s+", closing)
    at = rng.randrange(len(parts))
    parts[at] = re.sub(r"[.!?]+$", "", parts[at]) + " ".join(block)
    return " ".join(parts)


HARNESS = Harness(held_out=HELD_OUT, voices=tuple(LEADS), dress=dress, place=place)


def main() -> int:
    return cli(SHAPES, CONTROLS, HARNESS, __doc__ or "")


if __name__ == "__main__":
    sys.exit(main())
