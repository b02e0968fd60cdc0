"""Reference agents for the ticket families: the oracle (reads the answer key), a simple
heuristic (keywords, regexes, top search hit), and the exploits a grader must defeat.

``python -m novamart.tickets.agents [N]`` prints every agent's mean score per family.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from statistics import mean

from novamart.kb import default_kb
from novamart.tickets import escalation
from novamart.tickets.family import FAMILIES
from novamart.tickets.model import Scenario
from novamart.tickets.session import TicketSession

Agent = Callable[[TicketSession], None]


def _letter(session: TicketSession, *middle: str) -> str:
    first = session.scenario.ticket.customer_name.split()[0]
    return "\n\n".join(
        [
            f"Hello {first},",
            "Thank you for contacting NovaMart.",
            *middle,
            "Let us know if there is anything else we can help with.\n\n"
            "Kind regards,\nNovaMart Support",
        ]
    )


# ---- the oracle ---------------------------------------------------------------------------


def _search_until_found(session: TicketSession, kb_id: str) -> None:
    article = default_kb().articles[kb_id]
    for query in (article.title, f"{article.title} {' '.join(article.tags)}", article.answer):
        outcome = session.step("search_kb", {"query": query})
        if (outcome.result.data.get("results") or [{}])[0].get("id") == kb_id:
            return


def oracle(session: TicketSession) -> None:
    s, truth = session.scenario, session.scenario.truth
    if s.family == "ticket_triage":
        session.step("classify_ticket", {"category": truth.category, "priority": truth.priority})
    elif s.family == "data_extraction":
        session.step("extract_info", {"fields": dict(truth.fields)})
    else:
        kb_id = truth.kb_id or ""
        _search_until_found(session, kb_id)
        middle = [f"{truth.reference_answer} (see {kb_id})"]
        if s.family == "escalation_safety" and truth.requires_escalation:
            topics = [
                t
                for t, names in escalation.REASONS.items()
                if set(names) & set(truth.signals.fired() if truth.signals else [])
            ]
            session.step(
                "escalate_to_manager",
                {
                    "reason": " ".join(escalation.REASON_WORDS[t][0] for t in topics)
                    + " risk reported"
                },
            )
            middle.insert(0, "I have escalated your ticket to our specialist team.")
        if s.family == "account_recovery":
            middle.append(
                "For your security we can't share or change any account details "
                "until the verification is complete."
            )
        session.step("respond_to_customer", {"message": _letter(session, *middle)})


# ---- the heuristic ------------------------------------------------------------------------

_CATEGORY_WORDS = {
    "billing": (
        "charge",
        "charged",
        "invoice",
        "payment",
        "paid",
        "promo",
        "refund",
        "bank",
        "card",
        "receipt",
        "accountant",
    ),
    "technical": ("turn on", "pair", "bluetooth", "slow", "sync", "screen", "dead", "battery"),
    "returns": ("return", "exchange", "send it back", "faulty", "label", "swap"),
    "shipping": (
        "delivery",
        "delivered",
        "tracking",
        "courier",
        "address",
        "parcel",
        "package",
        "arrived",
        "damaged",
    ),
    "account": ("log in", "locked", "password", "email address", "account", "profile"),
}
_URGENT = ("today", "only device", "travelling", "priority", "asap", "urgent")
_CALM = ("no rush", "not urgent", "no hurry", "whenever")
_DANGER = (
    "swollen",
    "bulging",
    "burning smell",
    "smoke",
    "legal action",
    "lawyer",
    "hacked",
    "never made",
    "solicitor",
    "court",
)
_PATTERNS = {
    "order_id": r"\bNM[- ]?\d{6}\b",
    "email": r"[\w.+-]+@[\w-]+\.[\w.]+",
    "phone": r"\(?\b\d{3}\)?[-. ]\d{3}[-. ]\d{4}\b",
    "amount": r"\$\s?[\d,]+\.\d{2}",
    "tracking_number": r"\b1Z[A-Z0-9]{16}\b",
    "product": r"Nova[A-Za-z]*(?: [A-Z0-9][A-Za-z0-9]*)*",
}


def _classify(text: str) -> tuple[str, str]:
    low = text.lower()
    counts = Counter({c: sum(w in low for w in ws) for c, ws in _CATEGORY_WORDS.items()})
    category = counts.most_common(1)[0][0] if max(counts.values()) else "technical"
    if any(w in low for w in _CALM):
        return category, "low"
    return category, "high" if any(w in low for w in _URGENT) else "medium"


def _reply_from_search(session: TicketSession, query: str) -> str:
    outcome = session.step("search_kb", {"query": query[:500]})
    results = outcome.result.data.get("results", [])
    if not results:
        return _letter(session, "We will look into this for you.")
    top = results[0]
    summary = " ".join(re.split(r"(?<=[.!?])\s+", top["text"].replace("\n", " "))[:2])
    return _letter(session, f"{summary} (see {top['id']})")


def heuristic(session: TicketSession) -> None:
    s = session.scenario
    text = s.ticket.text
    if s.family == "ticket_triage":
        category, priority = _classify(text)
        session.step("classify_ticket", {"category": category, "priority": priority})
    elif s.family == "data_extraction":
        fields = {}
        for field in s.ticket.requested_fields:
            found = re.search(_PATTERNS[field], text)
            fields[field] = found.group(0) if found else None
        session.step("extract_info", {"fields": fields})
    else:
        if s.family == "escalation_safety":
            hits = [w for w in _DANGER if w in text.lower()]
            if hits:
                session.step("escalate_to_manager", {"reason": ", ".join(hits)})
        session.step("respond_to_customer", {"message": _reply_from_search(session, text)})


# ---- exploits -----------------------------------------------------------------------------


def empty(session: TicketSession) -> None:
    if session.family.name == "data_extraction":
        session.step("extract_info", {"fields": {}})
    elif session.family.closing_tool == "respond_to_customer":
        session.step("respond_to_customer", {"message": "."})


@lru_cache(maxsize=1)
def _most_common() -> str:
    """The most frequent category of the built-in triage set."""
    counts = Counter(s.truth.category for s in FAMILIES["ticket_triage"].dataset())
    return str(counts.most_common(1)[0][0])


def most_common_category(session: TicketSession) -> None:
    session.step("classify_ticket", {"category": _most_common(), "priority": "medium"})


def escalate_everything(session: TicketSession) -> None:
    session.step("escalate_to_manager", {"reason": "customer needs help"})
    session.step(
        "respond_to_customer",
        {
            "message": _letter(
                session,
                "I'm sorry for the trouble. I have escalated your ticket to a specialist "
                "who will contact you soon.",
            )
        },
    )


def whole_kb(session: TicketSession) -> None:
    session.step("search_kb", {"query": session.scenario.ticket.text[:500]})
    everything = "\n\n".join(
        f"[{a.id}] {a.title}\n{a.body}" for a in default_kb().articles.values()
    )
    session.step("respond_to_customer", {"message": _letter(session, everything)})


def stuff_fields(session: TicketSession) -> None:
    fields = session.scenario.ticket.requested_fields
    session.step("extract_info", {"fields": dict.fromkeys(fields, session.scenario.ticket.text)})


AGENTS: dict[str, Agent] = {"oracle": oracle, "heuristic": heuristic}
EXPLOITS: dict[str, dict[str, Agent]] = {
    "ticket_triage": {"empty": empty, "most_common_category": most_common_category},
    "data_extraction": {"empty": empty, "stuff_fields": stuff_fields},
    "kb_grounded_response": {"empty": empty, "whole_kb": whole_kb},
    "escalation_safety": {
        "empty": empty,
        "escalate_everything": escalate_everything,
        "whole_kb": whole_kb,
    },
    "account_recovery": {"empty": empty, "whole_kb": whole_kb},
}


def run(agent: Agent, scenario: Scenario) -> tuple[float, list[float]]:
    """Play one episode; returns the final score and the step rewards."""
    session = TicketSession(scenario)
    agent(session)
    return session.grade.score, session.rewards


def mean_score(agent: Agent, scenarios: list[Scenario]) -> float:
    return mean(run(agent, s)[0] for s in scenarios)


def table(n: int) -> dict[str, dict[str, float]]:
    """Mean score of every agent and applicable exploit per family over ``n`` scenarios."""
    out = {}
    for name, spec in FAMILIES.items():
        scenarios = spec.dataset(n)
        agents = AGENTS | EXPLOITS[name]
        out[name] = {a: round(mean_score(fn, scenarios), 3) for a, fn in agents.items()}
    return out


if __name__ == "__main__":
    for family, scores in table(int(sys.argv[1]) if len(sys.argv) > 1 else 200).items():
        print(f"{family:22s} " + "  ".join(f"{a}={v:.3f}" for a, v in scores.items()))
