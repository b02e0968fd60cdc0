"""Agents by name: the reference agents of novamart.agents, plus ``llm`` (a chat model)."""

from __future__ import annotations

from collections.abc import Callable

from novamart.agents import AGENTS
from novamart.evaluation.chat import ChatModel, LLMSettings
from novamart.evaluation.llm_agent import LLMAgent
from novamart.evaluation.runner import Agent
from novamart.evaluation.sessions import EnvSession

LLM = "llm"

AgentFactory = Callable[[int], Agent]
"""A fresh agent for one episode, given the agent's seed for it (novamart.evaluation.plays)."""


class UnknownAgent(ValueError):
    pass


def agent_names() -> list[str]:
    return [*AGENTS, LLM]


def check_agent(name: str, in_process: bool) -> None:
    """Refuse names that do not exist, and privileged agents that cannot see the episode."""
    if name == LLM:
        return
    if name not in AGENTS:
        raise UnknownAgent(f"unknown agent {name!r}; agents: {', '.join(agent_names())}")
    if AGENTS[name].privileged and not in_process:
        raise UnknownAgent(
            f"agent {name!r} reads the hidden episode, so it runs only in-process (no --env-url)"
        )


def agent_factory(name: str, session: EnvSession, llm: LLMSettings | None) -> AgentFactory:
    """Build agents called ``name`` against ``session`` (``llm`` is needed for "llm")."""
    check_agent(name, in_process=session.in_process)
    if name == LLM:
        model = ChatModel(llm or LLMSettings.from_environ())
        return lambda seed: LLMAgent(model, session.tools, seed)
    cls = AGENTS[name]
    return lambda seed: cls(seed=seed)
