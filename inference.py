"""NovaMart baseline runner: an OpenAI-compatible model plays every task.

    API_BASE_URL=https://router.huggingface.co/v1 MODEL_NAME=Qwen/Qwen2.5-72B-Instruct \
    HF_TOKEN=hf_... python inference.py [--env-url URL] [--tasks ...] [--episodes N] [--seed S]
    python inference.py --offline        # the heuristic agent, no API calls

Stdout carries only the lines evaluation pipelines parse (diagnostics go to stderr):

    [START] task=<task> env=novamart model=<model>
    [STEP] step=<n> action=<action> reward=<0.00> done=<true|false> error=<msg|null>
    [END] success=<true|false> steps=<n> score=<0.000> rewards=<r1,r2,...>

The key is read from HF_TOKEN, else OPENAI_API_KEY, else API_KEY. The environment runs in
this process unless --env-url names a server. Every task runs by default (the three order
cases and the five ticket families), easy -> medium -> hard. Model calls time out after
30 s and are retried with backoff; an episode whose model stays unreachable, or that spends
its 120 s model-time budget, ends with ``[END] success=false`` and the run goes on, so the
eight tasks take at most 16 minutes of model time.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Annotated, TextIO

import typer

from novamart.evaluation import options
from novamart.evaluation.agents import LLM, agent_factory
from novamart.evaluation.runner import LineSink, run_episode
from novamart.evaluation.sessions import open_session

OFFLINE_AGENT = "heuristic"


def emitter(stream: TextIO) -> LineSink:
    def emit(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return emit


def main(
    env_url: options.EnvUrl = None,
    offline: Annotated[
        bool, typer.Option("--offline", help="Play the heuristic agent; no API calls.")
    ] = False,
    tasks: options.Tasks = None,
    episodes: options.Episodes = 1,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, help="Episode i plays seed S+i (default: canonical)."),
    ] = None,
    model: options.Model = None,
    api_base_url: options.ApiBaseUrl = None,
    timeout: options.Timeout = None,
    retries: options.Retries = None,
    backoff: options.Backoff = None,
    episode_budget: options.EpisodeBudget = None,
) -> None:
    """Run the baseline agent on every task and print the [START]/[STEP]/[END] lines."""
    task_names = options.ordered_tasks(tasks)
    emit = emitter(sys.stdout)
    settings = options.llm_settings(model, api_base_url, timeout, retries, backoff, episode_budget)
    label = OFFLINE_AGENT if offline else settings.model
    # Anything else written to stdout (a library's print) goes to stderr instead.
    with contextlib.redirect_stdout(sys.stderr):
        session = open_session(env_url)
        try:
            make = agent_factory(OFFLINE_AGENT if offline else LLM, session, settings)
            for task in task_names:
                for episode_seed in options.episode_seeds(seed, episodes):
                    agent = make(episode_seed)
                    run_episode(session, agent, label, task, episode_seed, label, emit)
        finally:
            session.close()


def configure_logging() -> None:
    """Diagnostics to stderr: our warnings (retries, episodes ended early), others' errors."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(message)s"
    )
    logging.getLogger("novamart").setLevel(logging.INFO)


if __name__ == "__main__":
    configure_logging()
    typer.run(main)
