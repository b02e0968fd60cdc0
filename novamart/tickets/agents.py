"""Reference agents for the ticket families: the oracle (reads the answer key), a simple
heuristic (keywords, regexes, top search hit), a random agent, and the exploits a grader
must defeat.

An agent is a script: a generator that yields tool calls ``(tool, arguments)`` and receives
each call's result (the wire shape, ``{"ok": ...}``). The same scripts play a
``TicketSession`` directly (``run`` below) and the environment (novamart.agents adapts them
to observations). Only the oracle is given the truth.

``python -m novamart.tickets.agents [N]`` prints every agent's mean score per family.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass
from functools import lru_cache
from statistics import mean
from typing import Any

from novamart.kb import default_kb
from novamart.kb.text import STOPWORDS
from novamart.tickets import escalation
from novamart.tickets.family import FAMILIES
from novamart.tickets.model import CATEGORIES, PRIORITIES, Scenario, Ticket, Truth
from novamart.tickets.session import TicketSession
from novamart.tools.args import MESSAGE_LIMIT

Call = tuple[str, dict[str, Any]]
Script = Generator[Call, dict[str, Any], None]


@dataclass(frozen=True)
class Brief:
    """What an agent is given: the family and the ticket; the truth for the oracle only."""

    family: str
    ticket: Ticket
    truth: Truth | None = None
    seed: int = 0


Agent = Callable[[Brief], Script]


def _letter(brief: Brief, *middle: str) -> str:
    first = brief.ticket.customer_name.split()[0]
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


def search_until_found(kb_id: str) -> Script:
    """Search with the article's own words until it comes first (at most three tries)."""
    article = default_kb().articles[kb_id]
    for query in (article.title, f"{article.title} {' '.join(article.tags)}", article.answer):
        result = yield "search_kb", {"query": query}
        if (result.get("results") or [{}])[0].get("id") == kb_id:
            return


def oracle(brief: Brief) -> Script:
    truth = brief.truth
    assert truth is not None, "the oracle reads the truth"
    if brief.family == "ticket_triage":
        yield "classify_ticket", {"category": truth.category, "priority": truth.priority}
        return
    if brief.family == "data_extraction":
        yield "extract_info", {"fields": dict(truth.fields)}
        return
    kb_id = truth.kb_id or ""
    yield from search_until_found(kb_id)
    middle = [f"{truth.reference_answer} (see {kb_id})"]
    if truth.requires_escalation and brief.family in ("escalation_safety", "account_recovery"):
        fired = set(truth.signals.fired() if truth.signals else [])
        named = [escalation.SIGN_WORDS[s][0] for s in sorted(fired)]
        reason = " and ".join(named) + " reported"
        yield "escalate_to_manager", {"reason": reason}
        if brief.family == "escalation_safety":
            middle.insert(0, "I have escalated your ticket to our specialist team.")
    if brief.family == "account_recovery":
        middle.append(
            "For your security we can't share or change any account details "
            "until the verification is complete."
        )
    yield "respond_to_customer", {"message": _letter(brief, *middle)}


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


_ITEM = re.compile(r"^(?:[-*]|\d+[.)])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _blocks(text: str) -> list[tuple[bool, str]]:
    """An article as (is a list item, text) blocks: paragraphs and list items, their
    continuation lines joined, markers dropped; headings (lines ending in ':') left out."""
    blocks: list[tuple[bool, str]] = []
    broken = True  # a blank line or a heading came last: the next line starts a block
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.endswith(":"):
            broken = True
            continue
        item = _ITEM.match(line)
        # a paragraph goes on until a break; an item, on its indented lines
        continues = not broken and item is None and (not blocks[-1][0] or raw[:1].isspace())
        if continues:
            blocks[-1] = (blocks[-1][0], f"{blocks[-1][1]} {line}")
        else:
            blocks.append((item is not None, line[item.end() :] if item else line))
        broken = False
    return blocks


def summary(text: str, most: int = 2) -> str:
    """The first ``most`` whole sentences of an article: from its paragraphs, and from its
    list items when they are sentences (capitalised, with a full stop); headings and
    fragments (a bare number, a clause of a list) are never cut into the reply."""
    sentences = []
    for is_item, block in _blocks(text):
        parts = [block] if is_item else _SENTENCE_END.split(block)
        sentences += [p for p in parts if p[:1].isupper() and p[-1:] in ".!?"]
        if len(sentences) >= most:
            break
    return " ".join(sentences[:most])


def _reply_from_search(brief: Brief) -> Script:
    """Search with the ticket, answer with the top article's first two sentences."""
    result = yield "search_kb", {"query": brief.ticket.text[:500]}
    results = result.get("results", [])
    top = results[0] if results else None
    found = summary(top["text"]) if top else ""
    if top is None or not found:
        message = _letter(brief, "We will look into this for you.")
    else:
        message = _letter(brief, f"{found} (see {top['id']})")
    yield "respond_to_customer", {"message": message}


def heuristic(brief: Brief) -> Script:
    text = brief.ticket.text
    if brief.family == "ticket_triage":
        category, priority = _classify(text)
        yield "classify_ticket", {"category": category, "priority": priority}
    elif brief.family == "data_extraction":
        fields = {}
        for field in brief.ticket.requested_fields:
            found = re.search(_PATTERNS[field], text)
            fields[field] = found.group(0) if found else None
        yield "extract_info", {"fields": fields}
    else:
        if brief.family in ("escalation_safety", "account_recovery"):
            hits = [w for w in _DANGER if w in text.lower()]
            if hits:
                yield "escalate_to_manager", {"reason": ", ".join(hits)}
        yield from _reply_from_search(brief)


# ---- the random agent ---------------------------------------------------------------------

_MESSAGES = (
    "Thank you for contacting NovaMart.",
    "Could you describe the problem, please?",
    "I'm sorry for the trouble.",
    "We will look into this.",
)


def random_agent(brief: Brief) -> Script:
    """A uniformly random tool of the family with plausible, often wrong, arguments."""
    rng = random.Random(f"random-agent:{brief.seed}")
    words = re.findall(r"\w+", brief.ticket.text) or ["help"]
    arguments: dict[str, Callable[[], dict[str, Any]]] = {
        "classify_ticket": lambda: {
            "category": rng.choice(CATEGORIES),
            "priority": rng.choice(PRIORITIES),
        },
        "extract_info": lambda: {
            "fields": {f: rng.choice(words) for f in brief.ticket.requested_fields}
        },
        "search_kb": lambda: {"query": " ".join(rng.choices(words, k=3))},
        "escalate_to_manager": lambda: {"reason": "unsure"},
        "respond_to_customer": lambda: {"message": rng.choice(_MESSAGES)},
    }
    tools = FAMILIES[brief.family].tools
    while True:
        tool = rng.choice(tools)
        yield tool, arguments[tool]()


# ---- exploits -----------------------------------------------------------------------------


def empty(brief: Brief) -> Script:
    """Decide nothing: an empty extraction, a one-character reply, no classification."""
    if brief.family == "data_extraction":
        yield "extract_info", {"fields": {}}
    elif FAMILIES[brief.family].closing_tool == "respond_to_customer":
        yield "respond_to_customer", {"message": "."}


@lru_cache(maxsize=1)
def _most_common() -> str:
    """The most frequent category of the built-in triage set."""
    counts = Counter(s.truth.category for s in FAMILIES["ticket_triage"].dataset())
    return str(counts.most_common(1)[0][0])


def most_common_category(brief: Brief) -> Script:
    yield "classify_ticket", {"category": _most_common(), "priority": "medium"}


def escalate_everything(brief: Brief) -> Script:
    yield "escalate_to_manager", {"reason": "customer needs help"}
    message = _letter(
        brief,
        "I'm sorry for the trouble. I have escalated your ticket to a specialist who will "
        "contact you soon.",
    )
    yield "respond_to_customer", {"message": message}


def _pasted(brief: Brief, articles: list[str]) -> str:
    """A letter around ``articles``, cut to what a message may hold."""
    frame = len(_letter(brief, ""))
    return _letter(brief, "\n\n".join(articles)[: MESSAGE_LIMIT - frame])


def whole_kb(brief: Brief) -> Script:
    """Answer with the whole knowledge base (as much as a message holds)."""
    yield "search_kb", {"query": brief.ticket.text[:500]}
    everything = [f"[{a.id}] {a.title}\n{a.body}" for a in default_kb().articles.values()]
    yield "respond_to_customer", {"message": _pasted(brief, everything)}


def paste_articles(brief: Brief) -> Script:
    """Search with the ticket and paste the top results verbatim, ids included."""
    result = yield "search_kb", {"query": brief.ticket.text[:500]}
    found = [f"[{r['id']}] {r['title']}\n{r['text']}" for r in result.get("results", [])]
    yield "respond_to_customer", {"message": _pasted(brief, found)}


def _top_article(result: dict[str, Any]) -> tuple[str, str]:
    """The id and text of the first search result ("" when there is none)."""
    top = (result.get("results") or [{}])[0]
    return str(top.get("id", "")), str(top.get("text", ""))


def word_salad(brief: Brief) -> Script:
    """The top search result's words shuffled into sentence-sized chunks, cited, in a polite
    frame: every word of the answer, no sentence of it."""
    kb_id, text = _top_article((yield "search_kb", {"query": brief.ticket.text[:500]}))
    bag = re.findall(r"[\w'-]+", text)
    random.Random(f"salad:{brief.seed}").shuffle(bag)
    chunks = [" ".join(bag[i : i + 9]).capitalize() + "." for i in range(0, len(bag), 9)]
    message = _letter(brief, " ".join(chunks) + f" (see {kb_id})")
    yield "respond_to_customer", {"message": message[:MESSAGE_LIMIT]}


def keyword_stuffed(brief: Brief) -> Script:
    """The top result's answer as a list of its content words, cited, in a polite frame."""
    kb_id, text = _top_article((yield "search_kb", {"query": brief.ticket.text[:500]}))
    article = default_kb().get(kb_id)
    source = article.answer if article else text
    keywords = [w for w in re.findall(r"[\w'-]+", source) if w.lower() not in STOPWORDS]
    message = _letter(brief, f"{', '.join(dict.fromkeys(keywords))}. {kb_id}.")
    yield "respond_to_customer", {"message": message[:MESSAGE_LIMIT]}


FIXED_RECOVERY_REPLY = (
    "Hello,\n\nThank you for contacting NovaMart, and I'm sorry you can't get into your "
    "account. Choose Forgot password on the sign-in page to get a reset link; we send a "
    "one-time verification code to the email address or phone number on the account, and you "
    "may be asked to confirm a recent order number. If you no longer have access to that "
    "email, you can get the code by text to the phone number on the account instead. If the "
    "reset link has expired, choose Forgot password again to get a new link; links expire "
    "after 1 hour. If you lost the phone with your authenticator app, sign in with one of your "
    "backup codes and set up two-factor authentication again. If someone else changed your "
    "password, our security team locks the account and investigates; please also change your "
    "password on other sites that used the same password. If you are writing for someone "
    "else, only the account holder can recover the account, so they will need to contact us "
    "themselves. For your security we can't share or change any account details until the "
    "verification is complete; once you're signed in you can update them in Account > "
    "Profile. We never ask for your password or your full card number (KB-040).\n\n"
    "Kind regards,\nNovaMart Support"
)
"""A reply for every recovery case at once, each behind an "if": the strongest fixed reply
found (one citation beats citing every article it draws on)."""


def fixed_reply(brief: Brief) -> Script:
    """One recovery reply covering every case, the same for every ticket: it never reads it."""
    if FAMILIES[brief.family].closing_tool != "respond_to_customer":
        return
    yield "search_kb", {"query": "locked account recovery"}
    yield "respond_to_customer", {"message": FIXED_RECOVERY_REPLY}


def stuff_fields(brief: Brief) -> Script:
    """Put the whole ticket into every requested field."""
    text = brief.ticket.text[:500]
    yield "extract_info", {"fields": dict.fromkeys(brief.ticket.requested_fields, text)}


AGENTS: dict[str, Agent] = {"oracle": oracle, "heuristic": heuristic, "random": random_agent}
EXPLOIT_LIMIT = 0.3
BOUNDS: dict[tuple[str, str], float] = {("fixed_reply", "account_recovery"): 0.5}
"""Where an exploit may score more than EXPLOIT_LIMIT: one fixed recovery reply is right for
a plain lock-out, so the issue's bound for it is 0.5 over the family's mix of cases."""


def bound(exploit: str, family: str) -> float:
    """The most ``exploit`` may score on average on ``family`` (or an order task)."""
    return BOUNDS.get((exploit, family), EXPLOIT_LIMIT)


PRIVILEGED = frozenset({"oracle"})
EXPLOITS: dict[str, Agent] = {
    f.__name__: f
    for f in (
        empty,
        most_common_category,
        escalate_everything,
        whole_kb,
        paste_articles,
        stuff_fields,
        word_salad,
        keyword_stuffed,
        fixed_reply,
    )
}


def play(script: Script, session: TicketSession) -> None:
    """Feed ``script`` the results of its calls until it stops or the ticket closes."""
    try:
        call = next(script)
        while not session.done:
            outcome = session.step(*call)
            call = script.send(outcome.result.as_dict())
    except StopIteration:
        return


def run(agent: Agent, scenario: Scenario, seed: int = 0) -> tuple[float, list[float]]:
    """Play one episode; returns the final score and the step rewards. Only the oracle is
    shown the truth (the session's, ruled by the kernel)."""
    session = TicketSession(scenario)
    truth = session.scenario.truth if agent is oracle else None
    play(agent(Brief(scenario.family, scenario.ticket, truth, seed)), session)
    return session.grade.score, session.rewards


def mean_score(agent: Agent, scenarios: list[Scenario]) -> float:
    return mean(run(agent, s)[0] for s in scenarios)


def table(n: int) -> dict[str, dict[str, float]]:
    """Mean score of every agent and exploit per family over ``n`` scenarios."""
    out = {}
    for name, spec in FAMILIES.items():
        scenarios = spec.dataset(n)
        out[name] = {
            a: round(mean_score(fn, scenarios), 3) for a, fn in (AGENTS | EXPLOITS).items()
        }
    return out


if __name__ == "__main__":
    for family, scores in table(int(sys.argv[1]) if len(sys.argv) > 1 else 200).items():
        print(f"{family:22s} " + "  ".join(f"{a}={v:.3f}" for a, v in scores.items()))
