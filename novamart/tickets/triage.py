"""ticket_triage (easy): route a ticket to its category and priority.

Priority is derived, not guessed: each issue has a base priority and the customer's
stated circumstances move it one step up (time pressure, only device, work) or down (no
hurry). Hard tickets word the issue indirectly and mention another department's topic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from novamart.tickets import compose
from novamart.tickets.model import PRIORITIES, Difficulty, Grade, Scenario, Ticket, Truth
from novamart.tickets.state import TicketState

CATEGORY_WEIGHT = 0.6


@dataclass(frozen=True)
class Issue:
    category: str
    priority: str
    subject: str
    plain: str
    indirect: str


ISSUES = (
    Issue(
        "billing",
        "high",
        "Charged twice",
        "I was charged twice for order {order}. Please refund the duplicate charge.",
        "Looking at my statement, {amount} went out two times for the {product} I bought.",
    ),
    Issue(
        "billing",
        "low",
        "Invoice request",
        "Could you send me an invoice for order {order}? I need it for my expenses.",
        "My accountant wants paperwork showing what I paid for the {product}.",
    ),
    Issue(
        "billing",
        "medium",
        "Promo code not applied",
        "My promo code was not applied and I paid the full price for order {order}.",
        "The total for the {product} didn't reflect the 15 percent off I was promised.",
    ),
    Issue(
        "billing",
        "medium",
        "Payment declined",
        "My card payment keeps getting declined at checkout.",
        "I tried three times to buy the {product} and each time the bank says no.",
    ),
    Issue(
        "technical",
        "high",
        "Device won't turn on",
        "My {product} won't turn on at all, the screen stays black.",
        "Since this morning the {product} is just dead, nothing happens when I press anything.",
    ),
    Issue(
        "technical",
        "medium",
        "Bluetooth pairing problem",
        "My earbuds won't pair with my phone over Bluetooth.",
        "Only the left bud ever shows up in the list and the right one stays silent.",
    ),
    Issue(
        "technical",
        "low",
        "Slow laptop",
        "My laptop has become slow and takes ages to start.",
        "Opening a browser on the {product} now takes about a minute.",
    ),
    Issue(
        "technical",
        "medium",
        "Watch not syncing",
        "My smartwatch stopped syncing with the app.",
        "My steps from yesterday never made it onto my phone.",
    ),
    Issue(
        "returns",
        "medium",
        "Return an unopened item",
        "I want to return my unopened {product} from order {order}. How do I start a return?",
        "The {product} is still sealed and I've decided I don't need it after all.",
    ),
    Issue(
        "returns",
        "high",
        "Faulty item, want my money back",
        "The {product} from order {order} is faulty and I want to return it for a refund.",
        "After a week the {product} keeps rebooting by itself, I'd like to send it back.",
    ),
    Issue(
        "returns",
        "low",
        "Lost return label",
        "I lost the return label for order {order}, can I get a new one?",
        "The paper with the barcode for sending the {product} back went out with the recycling.",
    ),
    Issue(
        "returns",
        "medium",
        "Exchange request",
        "I'd like to exchange my {product} for a working unit.",
        "Could I swap this {product} for another one of the same model?",
    ),
    Issue(
        "shipping",
        "medium",
        "Where is my order",
        "Where is my order {order}? The tracking hasn't updated for days.",
        "The {product} was supposed to be here by now and the courier page says nothing new.",
    ),
    Issue(
        "shipping",
        "high",
        "Package not received",
        "Tracking says order {order} was delivered but I never received the package.",
        "Apparently the {product} was handed over yesterday but nobody here got anything.",
    ),
    Issue(
        "shipping",
        "medium",
        "Change delivery address",
        "I need to change the delivery address for order {order}.",
        "I typed my old flat number for the {product}; can it go to my new place instead?",
    ),
    Issue(
        "shipping",
        "high",
        "Arrived damaged",
        "My {product} arrived damaged, the box was crushed in delivery.",
        "The courier clearly dropped the parcel; the {product} inside has a cracked corner.",
    ),
    Issue(
        "shipping",
        "low",
        "Delivery time question",
        "How long does standard delivery take?",
        "If I order the {product} today, roughly when would it be with me?",
    ),
    Issue(
        "account",
        "high",
        "Locked out of account",
        "I'm locked out of my account and can't log in.",
        "The site keeps telling me my details are wrong and now it won't even let me try.",
    ),
    Issue(
        "account",
        "low",
        "Change email address",
        "How do I change the email address on my account?",
        "I'd like my NovaMart messages to go to my new work address from now on.",
    ),
    Issue(
        "account",
        "medium",
        "Password reset not working",
        "The password reset link doesn't work.",
        "I clicked the link you emailed me to set a new password and it says expired.",
    ),
    Issue(
        "account",
        "low",
        "Close account",
        "Please close my account and delete my data.",
        "I won't be shopping with you any more and would like my profile gone.",
    ),
)
RAISE = (
    "I need this sorted today, I use it for work.",
    "This is my only device and I'm travelling tomorrow.",
    "Please treat this as a priority, it's been a week already.",
)
LOWER = (
    "No rush at all, whenever you get a chance.",
    "It's not urgent.",
    "Just asking for later, no hurry.",
)
ASIDES = {
    "billing": "The payment went through fine, by the way.",
    "technical": "The device itself works fine.",
    "returns": "I'm not looking to return anything.",
    "shipping": "Delivery was quick, no complaints there.",
    "account": "Logging in works fine.",
}


def _shift(priority: str, by: int) -> str:
    i = min(len(PRIORITIES) - 1, max(0, PRIORITIES.index(priority) + by))
    return PRIORITIES[i]


def generate(rng: random.Random, difficulty: Difficulty, seed: int | None = None) -> Scenario:
    issue = rng.choice(ISSUES)
    customer = compose.name(rng)
    values = {
        "order": compose.order_id(rng),
        "product": compose.product(rng),
        "amount": f"${rng.randint(30, 1500)}.{rng.randint(0, 99):02d}",
    }
    indirect = difficulty == "hard" or (difficulty == "medium" and rng.random() < 0.5)
    body = [(issue.indirect if indirect else issue.plain).format(**values)]
    shift = 0 if difficulty == "easy" else rng.choice((-1, 0, 1))
    if shift:
        body.append(rng.choice(RAISE if shift > 0 else LOWER))
    if difficulty == "hard":
        other = rng.choice(sorted(set(ASIDES) - {issue.category}))
        body.insert(rng.randint(0, len(body)), ASIDES[other])
    return Scenario(
        family="ticket_triage",
        task_id="ticket_triage",
        difficulty=difficulty,
        seed=seed,
        ticket=Ticket(
            ticket_id=compose.ticket_id(rng),
            customer_name=customer,
            subject=issue.subject if difficulty == "easy" else "Help please",
            text=compose.letter(rng, customer, body),
        ),
        truth=Truth(category=issue.category, priority=_shift(issue.priority, shift)),
    )


def canonical() -> Scenario:
    """Seed 001's easy task: categorise a billing inquiry."""
    text = (
        "Hello,\n\nI was charged twice for order NM-418230 (the NovaBuds Air earbuds). "
        "Both payments of $89.99 are on my card statement. Please refund the duplicate "
        "charge.\n\nThanks,\nPriya Sharma"
    )
    return Scenario(
        family="ticket_triage",
        task_id="billing_triage",
        difficulty="easy",
        ticket=Ticket(
            ticket_id="TCK-10001", customer_name="Priya Sharma", subject="Charged twice", text=text
        ),
        truth=Truth(category="billing", priority="high"),
    )


def grade(state: TicketState) -> Grade:
    """Category right: 0.6; priority exact: +0.4, one step off: +0.2. Wrong category: 0."""
    truth = state.scenario.truth
    if state.category is None:
        return Grade(score=0.0)
    category = float(state.category == truth.category)
    distance = abs(PRIORITIES.index(state.priority or "low") - PRIORITIES.index(truth.priority))
    priority = {0: 1.0, 1: 0.5}.get(distance, 0.0)
    score = category * (CATEGORY_WEIGHT + (1 - CATEGORY_WEIGHT) * priority)
    steps = {0: "exactly right", 1: "one step off (half credit)"}.get(distance, "wrong")
    why = {
        "category": f"routed to {state.category}; it is {truth.category}",
        "priority": f"{state.priority} is {steps}: it is {truth.priority}"
        + ("" if category else " (counts only with the right category)"),
    }
    return Grade(
        score=round(score, 4), components={"category": category, "priority": priority}, why=why
    )
