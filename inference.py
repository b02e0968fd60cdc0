"""NovaMart baseline runner: an OpenAI-compatible model plays every task.

    API_BASE_URL=https://router.huggingface.co/v1 MODEL_NAME=Qwen/Qwen2.5-72B-Instruct \
    HF_TOKEN=hf_... python inference.py [--env-url URL] [--tasks ...] [--episodes N] [--seed S]
    python inference.py --offline        # the heuristic agent, no API calls
    python inference.py --offline --dataset data/tickets_sample.csv   # your own tickets

Stdout carries only the lines evaluation pipelines parse (diagnostics go to stderr):

    [START] task=<task> env=novamart model=<model>
    [STEP] step=<n> action=<action> reward=<0.00> done=<true|false> error=<msg|null>
    [END] success=<true|false> steps=<n> score=<0.000> rewards=<r1,r2,...>

The key is read from HF_TOKEN, else OPENAI_API_KEY, else API_KEY; without one the run stops
at once (exit status 2, one line, nothing sent). The environment runs in this process
unless --env-url names a server; --rules-dir (or RULES_DIR) picks the rule files it plays,
--mode guided,closed_book plays the order and retail cases in each mode and --policy-variant N
once more under policy variants (episode i under variant N+i), as ``novamart eval`` does;
--trials K plays every case K times, --customer llm lets a model play the customer
(CUSTOMER_API_BASE_URL, CUSTOMER_MODEL_NAME, CUSTOMER_API_KEY) and --judge llm grade the
communication term (JUDGE_API_BASE_URL, JUDGE_MODEL_NAME, JUDGE_API_KEY). Every task runs by
default (the four order cases, the five ticket families, the six retail cases), easy ->
medium -> hard. Model calls time out after 30 s and are retried with backoff; an episode whose
model stays unreachable, or that spends its 120 s model-time budget, ends with
``[END] success=false`` and the run goes on, so the fifteen tasks take at most 30 minutes of
model time.

``--dataset FILE`` (.csv or .jsonl, seed 003 columns) plays each row of the file once for
each ticket task it can serve, instead of seeds; every row is checked first, and a malformed
one stops the run with exit status 2 and one line naming the file, row and column. Which row
an episode plays is logged on stderr (the stdout lines keep their format).

Exit status: 0 when episodes were measured; 3 when every episode ended early (the model or
the server never answered); 1 when the mean score is below --fail-under; 2 for a usage
error, before any episode.
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
from novamart.evaluation.preflight import models, rules_in_process
from novamart.evaluation.runner import LineSink, run_episode
from novamart.evaluation.sessions import open_session
from novamart.evaluation.status import run_status

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
    mode: options.Modes = None,
    policy_variant: options.PolicyVariant = None,
    trials: options.Trials = 1,
    dataset: options.Dataset = None,
    rules_dir: options.RulesDir = None,
    model: options.Model = None,
    api_base_url: options.ApiBaseUrl = None,
    customer: options.Customer = "simulated",
    customer_model: options.CustomerModel = None,
    customer_api_base_url: options.CustomerApiBaseUrl = None,
    judge: options.Judge = "reader",
    judge_model: options.JudgeModel = None,
    judge_api_base_url: options.JudgeApiBaseUrl = None,
    timeout: options.Timeout = None,
    retries: options.Retries = None,
    backoff: options.Backoff = None,
    episode_budget: options.EpisodeBudget = None,
    fail_under: options.FailUnder = None,
) -> None:
    """Run the baseline agent on every task and print the [START]/[STEP]/[END] lines."""
    plan = None if dataset is None else options.dataset_plan(ctx, dataset, tasks)
    task_names = plan.tasks if plan else options.ordered_tasks(tasks)
    seeds = options.episode_seeds(seed, episodes)
    plays = schedule(task_names, seeds, plan, options.modes(mode), policy_variant, trials)
    emit = emitter(sys.stdout)
    called = models(
        not offline,
        (model, api_base_url),
        (customer, customer_model, customer_api_base_url),
        (timeout, retries, backoff, episode_budget),
        env_url,
        (judge, judge_model, judge_api_base_url),
    )
    settings = called.agent
    label = OFFLINE_AGENT if offline else settings.model
    results = []
    # Anything else written to stdout (a library's print) goes to stderr instead.
    with contextlib.redirect_stdout(sys.stderr), rules_in_process(ctx, rules_dir, env_url):
        session = open_session(env_url, called.simulator, called.grader)
        try:
            make = agent_factory(OFFLINE_AGENT if offline else LLM, session, settings)
            for play in plays:
                agent = make(play.agent_seed)
                case = (play.task, play.seed, label, emit, play.row, play.trial)
                results.append(run_episode(session, agent, label, *case, **play.case))
        finally:
            session.close()
    status = run_status(results, fail_under)
    if status.code:
        typer.echo(f"Error: {status.message}", err=True)
        raise typer.Exit(status.code)


def configure_logging() -> None:
    """Diagnostics to stderr: our warnings (retries, episodes ended early), others' errors."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(message)s"
    )
    logging.getLogger("novamart").setLevel(logging.INFO)


if __name__ == "__main__":
    configure_logging()
    typer.run(main)
