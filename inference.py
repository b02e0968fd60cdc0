"""NovaMart baseline runner: an OpenAI-compatible model plays every task.

    API_BASE_URL=https://router.huggingface.co/v1 MODEL_NAME=Qwen/Qwen2.5-72B-Instruct \
    HF_TOKEN=hf_... python inference.py [--env-url URL] [--tasks ...] [--episodes N] [--seed S]
    python inference.py --offline        # the heuristic agent, no API calls
    python inference.py --offline --dataset data/tickets_sample.csv   # your own tickets

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

``--dataset FILE`` (.csv or .jsonl, seed 003 columns) plays each row of the file once for
each ticket task it can serve, instead of seeds; every row is checked first, and a malformed
one stops the run with exit status 2 and one line naming the file, row and column. Which row
an episode plays is logged on stderr (the stdout lines keep their format).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from typing import Annotated, TextIO

import typer

from novamart.evaluation import options
from novamart.evaluation.agents import LLM, agent_factory
from novamart.evaluation.plays import schedule
from novamart.evaluation.runner import LineSink, run_episode
from novamart.evaluation.sessions import open_session

OFFLINE_AGENT = "heuristic"


def emitter(stream: TextIO) -> LineSink:
    def emit(line: str) -> None:
        stream.write(line + "\n")
        stream.flush()

    return emit


def main(
    ctx: typer.Context,
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
    dataset: options.Dataset = None,
    model: options.Model = None,
    api_base_url: options.ApiBaseUrl = None,
    timeout: options.Timeout = None,
    retries: options.Retries = None,
    backoff: options.Backoff = None,
    episode_budget: options.EpisodeBudget = None,
) -> None:
    """Run the baseline agent on every task and print the [START]/[STEP]/[END] lines."""
    plan = None if dataset is None else options.dataset_plan(ctx, dataset, tasks)
    task_names = plan.tasks if plan else options.ordered_tasks(tasks)
    plays = schedule(task_names, options.episode_seeds(seed, episodes), plan)
    emit = emitter(sys.stdout)
    settings = options.llm_settings(model, api_base_url, timeout, retries, backoff, episode_budget)
    label = OFFLINE_AGENT if offline else settings.model
    # Anything else written to stdout (a library's print) goes to stderr instead.
    with contextlib.redirect_stdout(sys.stderr):
        session = open_session(env_url)
        try:
            make = agent_factory(OFFLINE_AGENT if offline else LLM, session, settings)
            for play in plays:
                agent = make(play.row.index if play.row else play.seed)
                run_episode(session, agent, label, play.task, play.seed, label, emit, play.row)
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
