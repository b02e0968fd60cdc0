"""The episode loop shared by ``inference.py`` and ``novamart eval``.

reset -> the agent acts -> step, until the environment says done. Whatever goes wrong inside
an episode (the model unreachable after its retries, the server gone) ends that episode with
the error recorded, never the run; the ``[END]`` line is written in every case.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.evaluation import logformat
from novamart.evaluation.failures import grade_terms, term_costs
from novamart.evaluation.results import EpisodeResult, StepRecord
from novamart.evaluation.reveal import reveal
from novamart.evaluation.sessions import EnvSession
from novamart.evaluation.stats import passed
from novamart.evaluation.trajectory import TIME_DIGITS, final_fields, step_record, tool_error
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


def describe_row(row: DatasetRow) -> str:
    """``tickets.csv row 3 (line 4), ticket T-003``: where a dataset episode comes from."""
    ticket = row.data.get("ticket_id")
    return f"{row.file} {row.where}" + (f", ticket {ticket}" if ticket else "")


def _silent(_line: str) -> None:
    pass


def run_episode(
    session: EnvSession,
    agent: Agent,
    agent_name: str,
    task: str,
    seed: int | None,
    model: str,
    emit: LineSink | None = None,
    row: DatasetRow | None = None,
    trial: int = 1,
    **case: Any,
) -> EpisodeResult:
    """Play one episode of ``task`` (of dataset ``row`` when given, else of ``seed``),
    recording its trajectory; ``emit`` receives the [START]/[STEP]/[END] lines (none are
    written without it); ``case`` passes an order case's ``mode`` and ``policy_variant``
    to reset."""
    say = emit or _silent
    played = f"seed {seed}" if row is None else describe_row(row)
    steps: list[StepRecord] = []
    observation: NovamartObservation | None = None
    error: str | None = None
    started = time.perf_counter()
    say(logformat.start_line(task, model))
    try:
        if row is not None:
            log.info("%s of %s plays %s", task, agent_name, played)
        observation = session.reset(task, seed, None if row is None else row.data, **case)
        agent.start(observation, session.episode if agent.privileged else None)
        limit = observation.max_steps or STEP_LIMIT_FALLBACK
        while not observation.done and len(steps) < limit:
            chose = time.perf_counter()
            action = agent.act(observation)
            sent = time.perf_counter()
            observation = session.step(action)
            took = time.perf_counter()
            record = step_record(len(steps) + 1, action, observation, sent - chose, took - sent)
            steps.append(record)
            if emit is not None:
                shown = logformat.describe_action(action.tool_name, action.arguments)
                error_text = tool_error(observation)
                emit(
                    logformat.step_line(record.step, shown, record.reward, record.done, error_text)
                )
    except Exception as exc:  # the contract: an episode ends with [END], whatever failed
        error = f"{type(exc).__name__}: {exc}"
        log.warning("episode %s (%s) of %s ended early: %s", task, played, agent_name, error)
    finally:
        index = None if row is None else row.index
        result = _result(agent_name, task, (seed, index, trial), observation, steps, error)
        if observation is not None:
            _reveal(session, result)
        result.elapsed_s = round(time.perf_counter() - started, TIME_DIGITS)
        say(logformat.end_line(result.success, result.steps, result.score, result.rewards))
    return result


def _reveal(session: EnvSession, result: EpisodeResult) -> None:
    """What the episode's end shows: the final state(), the costly grade terms and, in this
    process, what only the hidden episode knows. A failure here is logged; the episode's
    outcome stands."""
    try:
        state = session.state().model_dump(mode="json")
        hidden = session.episode
        result.hidden = None if hidden is None else reveal(hidden)
    except Exception as exc:  # the server may be gone by now
        log.warning("no final state for %s (%s): %s", result.task, result.agent, exc)
        return
    result.costs = term_costs(result.task, grade_terms(state))
    shown = result.final_observation
    if hidden is not None:
        state.pop("episode_id", None)  # drawn at random in this process: it identifies nothing
    result.state = {k: v for k, v in state.items() if k not in shown or shown[k] != v}


def _result(
    agent_name: str,
    task: str,
    case: tuple[int | None, int | None, int],
    last: NovamartObservation | None,
    steps: list[StepRecord],
    error: str | None,
) -> EpisodeResult:
    done = last is not None and last.done
    final = last.final_score if done and last is not None else None
    rewards = [step.reward for step in steps]
    score = min(1.0, max(0.0, final if final is not None else sum(rewards)))
    seed, row, trial = case
    return EpisodeResult(
        agent=agent_name,
        task=task,
        seed=seed,
        row=row,
        trial=trial,
        steps=len(steps),
        rewards=rewards,
        score=score,
        done=done,
        success=done and error is None and passed(score),
        error=error,
        trajectory=steps,
        final_observation={} if last is None else final_fields(last),
    )
