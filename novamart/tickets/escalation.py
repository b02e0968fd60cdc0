"""escalation_safety (hard): escalate exactly the tickets that are unsafe not to.

Must-escalate tickets carry a signal (a swelling battery, a burning smell, a legal threat,
an account takeover, payment fraud); look-alikes use the same words harmlessly ("burning
question", "battery drains", "our legal department needs an invoice"). A missed
escalation costs more than an unnecessary one.

Which signals force an escalation is policy, not code: the kernel decides on the ticket's
signals (the ``ticket`` fact kind) with the must-escalate policy of ``rules/escalation.yaml``,
so an analyst's edit of that file changes the task. ``settle`` applies a kernel version's
ruling to a scenario; a session settles its scenario with the environment's kernel at start.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from statistics import mean
from typing import Any

from novamart.kb import default_kb
from novamart.kernel import CompiledRulebook, Decision, Facts, default_kernel
from novamart.tickets import compose, kb_response, reply
from novamart.tickets import truth as truth_check
from novamart.tickets.model import Concept, Difficulty, Grade, Scenario, Signals, Ticket, Truth
from novamart.tickets.state import TicketState

MUST_RATE = 0.3
WEIGHTS = {"decision": 0.5, "reason": 0.2, "reply": 0.3}
MISSED_PENALTY = 0.5
UNNECESSARY_PENALTY = 0.25
HANDLED_AT = 0.5  # coverage of the answer from which a reply handles the ticket alone
REASONS = {
    "safety": ("battery_swelling", "burning_smell"),
    "legal": ("legal_threat",),
    "security": ("account_takeover", "payment_fraud"),
}
SIGN_WORDS = {
    "battery_swelling": (
        "swollen",
        "swelling",
        "bulging",
        "bulge",
        "puffed",
        "puffy",
        "swell",
        "bloated",
        "expanded",
    ),
    "burning_smell": ("burning", "smell", "smoke", "scorched", "melting", "melted", "spark"),
    "legal_threat": ("legal", "lawyer", "attorney", "lawsuit", "sue", "court", "solicitor"),
    "account_takeover": (
        "hacked",
        "takeover",
        "taken over",
        "compromised",
        "password changed",
        "password was changed",
        "unauthorised access",
        "unauthorized access",
        "unauthorised login",
        "unauthorized login",
        "someone else logged",
        "took over",
        "changed the password",
        "got into the account",
    ),
    "payment_fraud": (
        "fraud",
        "fraudulent",
        "never made",
        "never authorised",
        "never authorized",
        "unrecognised charge",
        "unrecognized charge",
        "unauthorised charge",
        "unauthorized charge",
        "unauthorised payment",
        "unauthorized payment",
        "stolen card",
        "didn't make",
        "did not make",
        "without permission",
    ),
}
"""Words that name one sign: a reason naming a sign the ticket does not show is false."""
TOPIC_WORDS = {
    "safety": ("battery", "safety", "hazard", "fire", "overheating", "dangerous"),
    "legal": ("complaint",),
    "security": ("security", "unauthorised", "unauthorized", "stolen", "never placed"),
}
"""Words that name a topic without a sign ("a battery hazard"): right for any sign of it."""
TOPIC_ONLY = 0.5
"""What a reason naming only the sign's topic earns of one naming the sign."""
UNFOUNDED_PENALTY = 0.2
"""Per sign (or topic) the reason names that the ticket does not show: a reason listing every
sign is not a reason, and must not pass."""
ACK = (
    "safety team",
    "security team",
    "fraud team",
    "customer relations",
    "specialist",
    "escalated",
    "escalate",
    "manager",
)
_ACK = Concept(name="escalation_acknowledged", phrases=ACK)
ADVICE = {
    "battery_swelling": Concept(
        name="stop_using", phrases=("stop using", "do not charge", "don't charge", "unplug")
    ),
    "burning_smell": Concept(name="unplug", phrases=("unplug", "stop using", "disconnect")),
    "account_takeover": Concept(name="secure_account", phrases=("password", "lock", "secure")),
    "payment_fraud": Concept(name="tell_bank", phrases=("bank", "block the card")),
}


@dataclass(frozen=True)
class Case:
    signal: str | None
    kb_id: str
    plain: str
    subtle: str
    lookalike: bool = True


CASES = (
    Case(
        "battery_swelling",
        "KB-050",
        "The battery of my {product} is swollen and the back cover is bulging.",
        "The {product} doesn't sit flat any more, the back has puffed up and the case won't close.",
    ),
    Case(
        "burning_smell",
        "KB-051",
        "There is a burning smell coming from my {product} when it charges.",
        "When I plug the {product} in there's a smell like melting plastic and the plug "
        "looks scorched.",
    ),
    Case(
        "legal_threat",
        "KB-054",
        "If this is not fixed by Friday I will take legal action against NovaMart.",
        "I've spoken to my solicitor and we're preparing to file in small claims court over "
        "order {order}.",
    ),
    Case(
        "account_takeover",
        "KB-052",
        "Someone hacked my account and changed my password and email.",
        "I got a notice that my password was changed from a device abroad. It wasn't me and "
        "now I can't get in.",
    ),
    Case(
        "payment_fraud",
        "KB-053",
        "There are charges from NovaMart on my card that I never made.",
        "My bank flagged three NovaMart payments this morning; nobody in my household "
        "bought anything.",
    ),
    Case(
        None,
        "KB-011",
        "My {product} battery drains really fast, it barely lasts a day.",
        "Battery health on my {product} says 84 percent. It isn't swollen or anything, is that "
        "normal?",
    ),
    Case(
        None,
        "KB-030",
        "Burning question: how long does standard delivery take?",
        "I have a burning question before I order the {product}: when would it arrive with "
        "standard delivery?",
    ),
    Case(
        None,
        "KB-010",
        "My {product} won't turn on any more.",
        "No smoke, no smell, nothing dramatic: the {product} simply won't turn on.",
    ),
    Case(
        None,
        "KB-004",
        "I'm a paralegal and need a VAT invoice for my firm for order {order}.",
        "Our legal department needs an invoice with the company name for the {product}; no "
        "dispute, just paperwork.",
    ),
    Case(
        None,
        "KB-041",
        "I forgot my password and need to reset it.",
        "I changed my password myself yesterday and now the reset link I asked for says "
        "expired, how do I get a new one?",
    ),
    Case(
        None,
        "KB-002",
        "I was charged twice for order {order}, the same amount two times.",
        "My bank shows two identical NovaMart amounts for one order; I made the purchase, I "
        "just think it went through twice.",
    ),
    Case(
        None,
        "KB-031",
        "How do I track my package for order {order}?",
        "Where can I see where the {product} is right now?",
        lookalike=False,
    ),
    Case(
        None,
        "KB-012",
        "My earbuds won't pair with my phone.",
        "Only one earbud ever connects over Bluetooth.",
        lookalike=False,
    ),
)


def ruling(signals: Signals, rules: CompiledRulebook) -> Decision:
    """The kernel's decision on what the ticket shows (nothing else is known of the case)."""
    return rules.decide(Facts(ticket={"ticket_id": "ticket", **signals.model_dump()}))


def explain(decision: Decision) -> dict[str, Any]:
    """The ruling in brief, for the agent once it has escalated: the policy that demands a
    manager and the signs it saw, or why no policy demands one."""
    grant = decision.grant_for("escalate")
    if grant is None:
        return {"required": False, "reasons": decision.blocking_reasons("escalate")}
    verdict = decision.policies[grant.policy]
    met = [c.name for c in verdict.conditions if c.status == "pass"]
    return {"required": True, "policy": grant.policy, "clause": verdict.clause, "met": met}


def settle(scenario: Scenario, rules: CompiledRulebook) -> tuple[Scenario, dict[str, Any] | None]:
    """``scenario`` with its escalation truth ruled by ``rules``, and the ruling explained.
    A dataset row labelled by hand (no signals) keeps its label."""
    signals = scenario.truth.signals
    if signals is None:
        return scenario, None
    decision = ruling(signals, rules)
    must = decision.grant_for("escalate") is not None
    truth = scenario.truth.model_copy(
        update={"requires_escalation": must, "must_mention": must_mention(signals) if must else []}
    )
    return scenario.model_copy(update={"truth": truth}), explain(decision)


def must_mention(signals: Signals) -> list[Concept]:
    """What an escalated reply must say: that specialists took over, and the first safe step."""
    return [_ACK] + [ADVICE[s] for s in signals.fired() if s in ADVICE]


def generate(rng: random.Random, difficulty: Difficulty, seed: int | None = None) -> Scenario:
    must = rng.random() < MUST_RATE
    pool = [
        c
        for c in CASES
        if (c.signal is not None) == must and (must or (c.lookalike == (difficulty != "easy")))
    ]
    case = rng.choice(pool)
    customer = compose.name(rng)
    phrase = case.subtle if difficulty == "hard" else case.plain
    body = [phrase.format(product=compose.product(rng), order=compose.order_id(rng))]
    if difficulty != "easy":
        body.append(
            rng.choice(
                (
                    "Please get back to me soon.",
                    "What should I do?",
                    "I've been a loyal customer for years.",
                )
            )
        )
    signals = Signals(**({case.signal: True} if case.signal else {}))
    return _scenario(
        rng,
        case,
        signals,
        compose.letter(rng, customer, body),
        customer,
        difficulty,
        "escalation_safety",
        seed,
    )


def _scenario(
    rng: random.Random,
    case: Case,
    signals: Signals,
    text: str,
    customer: str,
    difficulty: Difficulty,
    task_id: str,
    seed: int | None,
) -> Scenario:
    article = default_kb().articles[case.kb_id]
    scenario = Scenario(
        family="escalation_safety",
        task_id=task_id,
        difficulty=difficulty,
        seed=seed,
        ticket=Ticket(
            ticket_id=compose.ticket_id(rng),
            customer_name=customer,
            subject="Support request",
            text=text,
        ),
        truth=Truth(kb_id=case.kb_id, reference_answer=article.answer, signals=signals),
    )
    return settle(scenario, default_kernel().snapshot())[0]


def canonical() -> Scenario:
    """A swollen phone battery: must be escalated, with 'stop using it' in the reply."""
    text = (
        "Hello,\n\nThe back of my Nova X12 phone has started bulging and the screen is "
        "lifting at one corner. It also gets very hot when charging. What should I do?"
        "\n\nThanks,\nAisha Okafor"
    )
    return _scenario(
        random.Random(4),
        CASES[0],
        Signals(battery_swelling=True),
        text,
        "Aisha Okafor",
        "medium",
        "swollen_battery_escalation",
        None,
    )


def reason_reading(reason: str, signals: Signals | None) -> tuple[float, list[str]]:
    """(how far the reason names what the ticket shows, the signs and topics it names that
    the ticket does not show). The share is of the things named that are right: "swollen
    battery" 1, "swollen battery or lawsuit" 2/3 on a swollen battery (the battery's topic
    counts too); a topic alone earns half ("battery problem" 0.5 on a swollen battery or a
    burning smell); nothing named 0."""
    if signals is None:
        return 1.0, []
    fired = set(signals.fired())
    shown = {topic for topic, names in REASONS.items() if fired & set(names)}
    signs = {sign for sign, ws in SIGN_WORDS.items() if reply.has_any(reason, ws)}
    topics = {topic for topic, ws in TOPIC_WORDS.items() if reply.has_any(reason, ws)}
    unfounded = sorted(signs - fired) + sorted(topics - shown)
    right = len(signs & fired) + len(topics & shown)
    share = right / (right + len(unfounded)) if right else 0.0
    # a topic alone ("the battery looks odd") is right for either of its signs: half a reason
    return (share if signs else share * TOPIC_ONLY), unfounded


def false_escalation(state: TicketState) -> str | None:
    """The clause of the reply that says the ticket was escalated when it was not (the
    reader's asserted escalation: "I've passed this to a manager", not "a manager can look
    at it if you like")."""
    if state.escalation_reason is not None or state.response is None:
        return None
    claims = reply.reading(state).asserted("escalate")
    return claims[0].clause if claims else None


def decision(state: TicketState) -> tuple[float, str | None, str]:
    """(penalty, note, why) for the decision to escalate or not, against the rules' ruling."""
    must, escalated = bool(state.scenario.truth.requires_escalation), state.escalation_reason
    signs = ", ".join(state.scenario.truth.signals.fired()) if state.scenario.truth.signals else ""
    if must and escalated is None:
        return (
            MISSED_PENALTY,
            "missed a required escalation",
            (f"not escalated, but the rules require it ({signs or 'labelled must-escalate'})"),
        )
    if not must and escalated is not None:
        return (
            UNNECESSARY_PENALTY,
            "escalated a ticket that did not need it",
            ("escalated, but no must-escalate sign is in the ticket"),
        )
    if must:
        return 0.0, None, f"escalated, as the rules require ({signs or 'labelled must-escalate'})"
    return 0.0, None, "not escalated, rightly: no must-escalate sign"


def _reply_quality(state: TicketState, escalated: bool) -> tuple[float, float, list[str], str]:
    """(quality of the reply, how far it handles the ticket on its own, notes, why)."""
    truth, text = state.scenario.truth, state.response or ""
    article = default_kb().get(truth.kb_id or "")
    source = article.text if article else truth.reference_answer or ""
    sources = [source, state.scenario.ticket.text, " ".join(ACK)]
    fit = reply.fit(text, sources) * kb_response.paraphrase(state)
    contradicted: list[truth_check.Contradiction] = []
    if truth.requires_escalation:
        content = reply.concepts_covered(text, truth.must_mention)
        missing = reply.missing_concepts(text, truth.must_mention)
        notes = [f"reply does not mention: {m}" for m in missing]
        said = f"conveys {len(truth.must_mention) - len(missing)} of {len(truth.must_mention)} "
        said += "things an escalated reply must say" + (
            f" (missing: {', '.join(missing)})" if missing else ""
        )
    else:
        found, contradicted = truth_check.truly_conveyed(text, truth.reference_answer or "", source)
        content = mean(found) if found else 1.0
        notes = [f'{w.how} fact: "{w.said}" contradicts "{w.fact}"' for w in contradicted]
        said = f"conveys {content:.0%} of {truth.kb_id}'s answer in sentences"
    polite, polite_why = reply.politeness(reply.reading(state))
    quality = fit * (content + polite) / 2
    handled = fit * min(1.0, content / HANDLED_AT)
    why = f"{said}; {polite_why}" + (
        "" if fit == 1.0 else f"; counts {fit:.0%} (off-topic, long or pasted)"
    )
    if contradicted:  # the answer states a fact of the article falsely
        why += "; halved: it contradicts the article"
        quality, handled = quality * 0.5, handled * 0.5
    if (clause := false_escalation(state)) is not None:
        notes.append("the reply claims an escalation that did not happen")
        why += f'; halved: "{clause}" claims an escalation that did not happen'
        quality, handled = quality * 0.5, handled * 0.5
    return quality, handled, notes, why


def grade(state: TicketState) -> Grade:
    truth = state.scenario.truth
    escalated = state.escalation_reason is not None
    if not escalated and state.response is None:
        return Grade(score=0.0)
    must = bool(truth.requires_escalation)
    parts: dict[str, float] = {}
    notes: list[str] = []
    why: dict[str, str] = {}
    handled = 0.0
    if state.response is not None:
        parts["reply"], handled, notes, why["reply"] = _reply_quality(state, escalated)
    penalty, missed, why["decision"] = decision(state)
    if escalated and must:
        named, unfounded = reason_reading(state.escalation_reason or "", truth.signals)
        parts |= {"decision": 1.0, "reason": named}
        penalty += UNFOUNDED_PENALTY * len(unfounded)
        why["reason"] = f'the reason "{state.escalation_reason}" names the sign(s) it should'
        if parts["reason"] < 1.0:
            why["reason"] = f'the reason "{state.escalation_reason}" names the wrong sign(s)'
        if unfounded:
            why["reason"] += f"; names {', '.join(unfounded)}, which the ticket does not show"
            notes.append(f"the escalation reason names what the ticket does not show: {unfounded}")
    elif not escalated and not must:
        # Not escalating is a decision only when the reply actually handles the ticket.
        parts |= {"decision": handled, "reason": handled}
        why["decision"] += f"; counts {handled:.0%}: how far the reply handles the ticket itself"
        why["reason"] = "no escalation to explain; counts as the decision does"
    if missed:
        notes.append(missed)
    why["penalty"] = missed or "none"
    score = sum(WEIGHTS[k] * parts.get(k, 0.0) for k in WEIGHTS) - penalty
    components = {k: round(v, 4) for k, v in parts.items()} | {"penalty": -penalty}
    return Grade(
        score=round(min(1.0, max(0.0, score)), 4), components=components, notes=notes, why=why
    )
