"""data_extraction (medium): pull the requested fields out of a messy ticket.

The text mixes formats (``nm482913``, ``jane dot doe at gmail dot com``, ``USD 1,299``)
with distractors: older orders, quoted replies, phone numbers, other people's addresses.
A requested field the ticket does not state has the answer null. Scored by precision and
recall over the requested fields.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from novamart.tickets import compose
from novamart.tickets.model import Difficulty, Grade, Scenario, Ticket, Truth
from novamart.tickets.state import TicketState

EXTRAS = ("product", "amount", "phone", "tracking_number")
_CATEGORY_WORDS = {"phone", "laptop", "earbuds", "smartwatch"}


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def norm_order(value: str) -> str:
    digits = _digits(value)
    return f"NM-{digits}" if len(digits) == 6 else value.strip().upper()


def norm_email(value: str) -> str:
    v = f" {value.strip().lower()} "
    for pattern, repl in (
        (r"\s*(\[at\]|\(at\)| at )\s*", "@"),
        (r"\s*(\[dot\]|\(dot\)| dot )\s*", "."),
    ):
        v = re.sub(pattern, repl, v)
    return v.strip().strip("<>.,;")


def norm_phone(value: str) -> str:
    return _digits(value)[-10:]


def norm_amount(value: str) -> str:
    cleaned = re.sub(r"[^\d.]", "", value.replace(",", ""))
    try:
        return f"{float(cleaned):.2f}"
    except ValueError:
        return value.strip()


def norm_tracking(value: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", value.upper())


def norm_product(value: str) -> str:
    return " ".join(w for w in re.findall(r"[a-z0-9]+", value.lower()) if w not in _CATEGORY_WORDS)


NORMALISE: dict[str, Callable[[str], str]] = {
    "order_id": norm_order,
    "email": norm_email,
    "phone": norm_phone,
    "amount": norm_amount,
    "tracking_number": norm_tracking,
    "product": norm_product,
}


def _order_surface(rng: random.Random, order: str, difficulty: Difficulty) -> str:
    digits = order[3:]
    forms = {
        "easy": [order],
        "medium": [order, f"NM{digits}", f"nm-{digits}", f"#{order}", f"NM {digits}"],
        "hard": [f"nm{digits}", f"NM {digits}", f"order number {digits}", f"#{digits}"],
    }
    return rng.choice(forms[difficulty])


def _email_surface(rng: random.Random, address: str, difficulty: Difficulty) -> str:
    local, domain = address.split("@")
    if difficulty == "hard" and rng.random() < 0.6:
        return f"{local.replace('.', ' dot ')} at {domain.replace('.', ' dot ')}"
    if difficulty != "easy" and rng.random() < 0.5:
        return f"<{local.capitalize()}@{domain.upper()}>"
    return address


def _phone_surface(rng: random.Random, number: str) -> str:
    a, b, c = number[:3], number[3:6], number[6:]
    return rng.choice((f"{a}-{b}-{c}", f"({a}) {b} {c}", f"+1 {a} {b} {c}", f"{a}.{b}.{c}"))


def _amount_surface(rng: random.Random, cents: int) -> str:
    dollars, rest = divmod(cents, 100)
    return rng.choice(
        (f"${dollars:,}.{rest:02d}", f"{dollars}.{rest:02d} USD", f"USD {dollars:,}.{rest:02d}")
    )


def _tracking(rng: random.Random) -> str:
    return "1Z" + "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(16))


def _distractors(
    rng: random.Random, gold: dict[str, str | None], requested: list[str], customer: str
) -> list[str]:
    """Sentences that look like answers but are not."""
    older = compose.order_id(rng)
    other = compose.email(rng, compose.name(rng))
    pool = [
        f"My previous order {older} arrived fine, this is about a different one.",
        f"Please don't write to my old address {compose.email(rng, customer)}, I no longer use it.",
        f"You can also call me on {_phone_surface(rng, compose.phone(rng))}."
        if "phone" not in requested
        else f"My old number {_phone_surface(rng, compose.phone(rng))} is disconnected.",
        f"My husband ({other}) is in copy but the account is mine.",
        f"Your colleague gave me reference {compose.ticket_id(rng)} last time.",
        f"I also bought a case for ${rng.randint(10, 49)}.99 separately, that one is fine.",
    ]
    return rng.sample(pool, 2 if len(gold) > 2 else 1)


def _quoted(rng: random.Random) -> str:
    return (
        f"\n\n> On {rng.randint(2, 28)} March, NovaMart Support <support@novamart.com> wrote:\n"
        f"> Your order {compose.order_id(rng)} has shipped with tracking {_tracking(rng)}."
    )


def generate(rng: random.Random, difficulty: Difficulty, seed: int | None = None) -> Scenario:
    customer = compose.name(rng)
    gold: dict[str, str | None] = {
        "order_id": compose.order_id(rng),
        "email": compose.email(rng, customer),
    }
    n_extra = {"easy": 0, "medium": 1, "hard": 2}[difficulty]
    extras = rng.sample(EXTRAS, n_extra)
    item, cents = compose.product(rng), rng.randint(2000, 250000)
    values = {
        "product": item,
        "amount": f"{cents / 100:.2f}",
        "phone": compose.phone(rng),
        "tracking_number": _tracking(rng),
    }
    absent = extras[-1] if difficulty == "hard" and rng.random() < 0.4 else None
    for field in extras:
        gold[field] = None if field == absent else values[field]
    order = _order_surface(rng, gold["order_id"] or "", difficulty)
    body = [
        rng.choice(
            (
                f"I have a problem with my order {order}.",
                f"Regarding {order}: the {item} is not working properly.",
                f"My {item} ({order}) has an issue I need help with.",
            )
        )
    ]
    sentences = {
        "product": f"The item is the {item}.",
        "amount": f"I paid {_amount_surface(rng, cents)} for it.",
        "phone": f"Best number to reach me: {_phone_surface(rng, values['phone'])}.",
        "tracking_number": f"The tracking number is {values['tracking_number']}.",
    }
    body += [sentences[f] for f in extras if f != absent]
    body.append(
        rng.choice(("Please reply to {e}.", "My email is {e}.", "You can reach me at {e}.")).format(
            e=_email_surface(rng, gold["email"] or "", difficulty)
        )
    )
    if difficulty != "easy":
        for sentence in _distractors(rng, gold, extras, customer):
            body.insert(rng.randint(1, len(body)), sentence)
    text = compose.letter(rng, customer, body)
    if difficulty == "hard":
        text += _quoted(rng)
    return Scenario(
        family="data_extraction",
        task_id="data_extraction",
        difficulty=difficulty,
        seed=seed,
        ticket=Ticket(
            ticket_id=compose.ticket_id(rng),
            customer_name=customer,
            subject="Problem with my order",
            text=text,
            requested_fields=["order_id", "email", *extras],
        ),
        truth=Truth(category="technical", fields=gold),
    )


def canonical() -> Scenario:
    """Seed 001's medium task: the order id and email from a technical request."""
    text = (
        "Hi,\n\nMy NovaBook Pro 16 laptop from order #NM-552019 keeps shutting down after "
        "ten minutes. My last order NM-498811 was fine. You can call me on 555-201-7744 "
        "but email is better: tom.becker@outlook.com.\n\nThanks,\nTom Becker"
    )
    return Scenario(
        family="data_extraction",
        task_id="order_email_extraction",
        difficulty="medium",
        ticket=Ticket(
            ticket_id="TCK-10002",
            customer_name="Tom Becker",
            subject="Laptop shuts down",
            text=text,
            requested_fields=["order_id", "email"],
        ),
        truth=Truth(
            category="technical",
            fields={"order_id": "NM-552019", "email": "tom.becker@outlook.com"},
        ),
    )


def normalise(field: str, value: str | None) -> str | None:
    if value is None or not str(value).strip():
        return None
    return NORMALISE.get(field, lambda v: " ".join(v.lower().split()))(str(value))


def grade(state: TicketState) -> Grade:
    """F1 of (field, value) pairs over the requested fields; a value for a field the
    ticket does not state counts as a false positive."""
    if state.extraction is None:
        return Grade(score=0.0)
    gold = state.scenario.truth.fields
    tp = fp = fn = 0
    components = {}
    why = {}
    for field, expected in gold.items():
        want, got = normalise(field, expected), normalise(field, state.extraction.get(field))
        right = want == got
        components[f"field:{field}"] = float(right)
        said = "null" if got is None else repr(got)
        why[f"field:{field}"] = (
            f"{said}, right"
            if right
            else f"{said}; the ticket says {'nothing (null)' if want is None else repr(want)}"
        )
        tp += int(right and want is not None)
        fp += int(got is not None and not right)
        fn += int(want is not None and not right)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    components |= {"precision": round(precision, 4), "recall": round(recall, 4)}
    why |= {
        "precision": f"{tp} of {tp + fp} values given are right",
        "recall": f"{tp} of {tp + fn} values the ticket states were found",
    }
    return Grade(score=round(f1, 4), components=components, why=why)
