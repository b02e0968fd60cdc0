"""Reference agents: the oracle, the honest writer, a heuristic, a random agent and the
exploits; each plays both kinds of task (order cases and support tickets)."""

from __future__ import annotations

from novamart.agents.base import Agent
from novamart.agents.exploits import (
    DoNothingAgent,
    EscalateEverythingAgent,
    FixedReplyAgent,
    KeywordStuffedAgent,
    MostCommonCategoryAgent,
    PasteArticlesAgent,
    PromiseEverythingAgent,
    RefundEverythingAgent,
    RespondSpamAgent,
    StuffFieldsAgent,
    ToolSpamAgent,
    WholeKbAgent,
    WordSaladAgent,
)
from novamart.agents.fact_reader import (
    AlwaysCreditAgent,
    AlwaysEscalateAgent,
    AlwaysRefundAgent,
    FactReaderAgent,
)
from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.honest import HonestAgent
from novamart.agents.oracle import OracleAgent
from novamart.agents.random_agent import RandomAgent
from novamart.agents.tricks import TRICKS
from novamart.tickets.agents import bound as exploit_bound

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (
        OracleAgent,
        HonestAgent,
        HeuristicAgent,
        RandomAgent,
        DoNothingAgent,
        RefundEverythingAgent,
        EscalateEverythingAgent,
        PromiseEverythingAgent,
        ToolSpamAgent,
        RespondSpamAgent,
        MostCommonCategoryAgent,
        WholeKbAgent,
        PasteArticlesAgent,
        StuffFieldsAgent,
        WordSaladAgent,
        KeywordStuffedAgent,
        FixedReplyAgent,
        FactReaderAgent,
        AlwaysRefundAgent,
        AlwaysCreditAgent,
        AlwaysEscalateAgent,
        *TRICKS,
    )
}
EXPLOITS = (
    "do_nothing",
    "refund_everything",
    "escalate_everything",
    "promise_everything",
    "tool_spam",
    "respond_spam",
    "most_common_category",
    "whole_kb",
    "paste_articles",
    "stuff_fields",
    "word_salad",
    "keyword_stuffed",
    "fixed_reply",
)
"""Cheap tricks without reasoning: each must score at most ``exploit_bound(name, task)`` on
every task (0.3, or 0.5 for one fixed reply on account_recovery)."""


MESSAGE_TRICKS = tuple(trick.name for trick in TRICKS)
"""Text tricks after the right actions (and two cheats on the actions): see
novamart.agents.tricks for what each must score at most."""
SCRIPTS = ("fact_reader", "always_refund", "always_credit", "always_escalate")
"""Scripts that investigate, then follow a fixed rule: the handbook as printed, or one
resolution whatever the case (chosen from a task's name)."""

__all__ = ["AGENTS", "EXPLOITS", "MESSAGE_TRICKS", "SCRIPTS", "Agent", "exploit_bound"]
