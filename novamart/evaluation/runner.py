"""The episode loop shared by ``inference.py`` and ``novamart eval``.

reset -> the agent acts -> step, until the environment says done. Whatever goes wrong inside
an episode (the model unreachable after its retries, the server gone) ends that episode with
the error recorded, never the run; the ``[END]`` line is written in every case.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.evaluation import logformat
from novamart.evaluation.results import EpisodeResult
from novamart.evaluation.sessions import EnvSession
from novamart.evaluation.stats import passed
from novamart.models import NovamartObservation
from novamart.server.runs import Hidden
from novamart.tickets.dataset import DatasetRow

log = logging.getLogger(__name__)

STEP_LIMIT_FALLBACK = 50
"""Steps allowed when an observation does not state max_steps; the env's own limit rules."""

LineSink = Callable[[str], None]


class Agent(Protocol):
    """The shape of novamart.agents.base.Agent, which the LLM agent shares."""

    @property
    def privileged(self) -> bool: ...

    def start(self, observation: NovamartObservation, episode: Hidden | None = None) -> None: ...

    def act(self, observation: NovamartObservation) -> CallToolAction: ...


def tool_error(observation: NovamartObservation) -> str | None:
    """The refusal this step's tool answered with, as ``code: message``; None on success."""
    result = observation.last_tool_result
    if isinstance(result, dict) and result.get("ok") is False:
        error = result.get("error") or {}
        return f"{error.get('code', 'error')}: {error.get('message', '')}"
    if observation.error is not None:
        return observation.error.message
    return None


def describe_row(row: DatasetRow) -> str:
    """``tickets.csv row 3 (line 4), ticket T-003``: where a dataset episode comes from."""
    ticket = row.data.get("ticket_id")
    return f"{row.file} {row.where}" + (f", ticket {ticket}" if ticket else "")


def run_episode(
    session: EnvSession,
    agent: Agent,
    agent_name: str,
    task: str,
    seed: int | None,
    model: str,
    emit: LineSink | None = None,
    row: DatasetRow | None = None,
    **case: Any,
) -> EpisodeResult:
    """Play one episode of ``task`` (of dataset ``row`` when given, else of ``seed``);
    ``emit`` receives the [START]/[STEP]/[END] lines; ``case`` passes an order case's
    ``mode`` and ``policy_variant`` to reset."""
    say = emit or (lambda _line: None)
    played = f"seed {seed}" if row is None else describe_row(row)
    rewards: list[float] = []
    observation: NovamartObservation | None = None
    error: str | None = None
    say(logformat.start_line(task, model))
    try:
        if row is not None:
            log.info("%s of %s plays %s", task, agent_name, played)
        observation = session.reset(task, seed, None if row is None else row.data, **case)
        agent.start(observation, session.episode if agent.privileged else None)
        limit = observation.max_steps or STEP_LIMIT_FALLBACK
        while not observation.done and len(rewards) < limit:
            action = agent.act(observation)
            observation = session.step(action)
            reward = float(observation.reward or 0.0)
            rewards.append(reward)
            shown = logformat.describe_action(action.tool_name, action.arguments)
            say(
                logformat.step_line(
                    len(rewards), shown, reward, observation.done, tool_error(observation)
                )
            )
    except Exception as exc:  # the contract: an episode ends with [END], whatever failed
        error = f"{type(exc).__name__}: {exc}"
        log.warning("episode %s (%s) of %s ended early: %s", task, played, agent_name, error)
    finally:
        index = None if row is None else row.index
        result = _result(agent_name, task, seed, index, observation, rewards, error)
        say(logformat.end_line(result.success, result.steps, result.score, result.rewards))
    return result


def _result(
    agent_name: str,
    task: str,
    seed: int | None,
    row: int | None,
    last: NovamartObservation | None,
    rewards: list[float],
    error: str | None,
) -> EpisodeResult:
    done = last is not None and last.done
    final = last.final_score if done and last is not None else None
    score = min(1.0, max(0.0, final if final is not None else sum(rewards)))
    return EpisodeResult(
        agent=agent_name,
        task=task,
        seed=seed,
        row=row,
        steps=len(rewards),
        rewards=rewards,
        score=score,
        done=done,
        success=done and error is None and passed(score),
        error=error,
    )
