"""``novamart eval``: score agents on tasks over many seeded episodes, or over the rows of a
ticket dataset (``--dataset``: each row once per ticket task it serves).

    novamart eval --agent oracle,heuristic,random --tasks easy_refund --episodes 100 --seed 0 \
        --trials 4 --out results.json --chart chart.png --markdown results.md --html results.html
    novamart eval --agent oracle,heuristic --dataset data/tickets_sample.csv

Prints one table per task (mean, std, pass^k over trials, the chance that k different cases
all pass); optionally writes the JSON results with every trajectory, a PNG bar chart and a
report (markdown, HTML) that names the command reproducing it, groups the failures by what
cost the points and shows the episodes' transcripts. ``--agent llm`` plays an
OpenAI-compatible model, configured like inference.py; ``--customer llm`` lets a model play
the customer, ``--judge llm`` grade the communication term
(novamart.evaluation.llm_judge). Exit status: see novamart.evaluation.status.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from novamart.evaluation import options
from novamart.evaluation.chat import LLMSettings
from novamart.evaluation.plays import Play, schedule
from novamart.evaluation.report import task_tables
from novamart.evaluation.results import EpisodeResult, EvalResults, RunSettings, collect, write_json

if TYPE_CHECKING:
    from novamart.episode import CustomerSimulator
    from novamart.reward import CommunicationJudge

# The agents, the runner, the customer and the chart load the environment (and with it
# OpenEnv's gradio) or matplotlib: imported when a run starts, so `novamart --help` and
# `novamart rules` stay quick.

Agents = Annotated[
    list[str],
    typer.Option("--agent", help="Agent names, comma-separated or repeated (llm = a model)."),
]
OutPath = Annotated[
    Path | None, typer.Option(help="Write the results, every trajectory included, as JSON.")
]
ChartPath = Annotated[Path | None, typer.Option(help="Write a PNG bar chart here.")]
MarkdownPath = Annotated[
    Path | None, typer.Option("--markdown", help="Write the report as markdown here.")
]
HtmlPath = Annotated[Path | None, typer.Option("--html", help="Write the report as HTML here.")]
Transcripts = Annotated[
    int | None,
    typer.Option(
        "--transcripts",
        min=0,
        help="Transcripts per agent and task in the reports, failures first (default: all).",
    ),
]


def command_line(
    settings: RunSettings,
    llm: LLMSettings | None,
    customer: LLMSettings | None,
    paths: dict[str, Path | None],
    transcripts: int | None,
    judge: LLMSettings | None = None,
) -> str:
    """The canonical command that reproduces a run (recorded in the JSON and reports)."""
    parts = ["novamart", "eval", "--agent", ",".join(settings.agents)]
    tasks = dict.fromkeys(label.split("/")[0] for label in settings.tasks)  # columns -> tasks
    parts += ["--tasks", ",".join(tasks)]
    if settings.dataset is not None:
        parts += ["--dataset", settings.dataset]
    else:
        parts += ["--episodes", str(settings.episodes), "--seed", str(settings.seed)]
    if settings.modes != ["guided"]:
        parts += ["--mode", ",".join(settings.modes)]
    if settings.policy_variant is not None:
        parts += ["--policy-variant", str(settings.policy_variant)]
    if settings.trials > 1:
        parts += ["--trials", str(settings.trials)]
    if settings.rules_dir is not None:
        parts += ["--rules-dir", settings.rules_dir]
    if settings.env_url:
        parts += ["--env-url", settings.env_url]
    if llm is not None:
        parts += ["--model", llm.model, "--api-base-url", llm.api_base_url]
    if customer is not None:
        parts += ["--customer", "llm", "--customer-model", customer.model]
        parts += ["--customer-api-base-url", customer.api_base_url]
    if judge is not None:
        parts += ["--judge", "llm", "--judge-model", judge.model]
        parts += ["--judge-api-base-url", judge.api_base_url]
    for option, path in paths.items():
        if path is not None:
            parts += [f"--{option}", str(path)]
    if transcripts is not None:
        parts += ["--transcripts", str(transcripts)]
    return shlex.join(parts)


def run_all(
    settings: RunSettings,
    plays: list[Play],
    llm: LLMSettings | None,
    customer: CustomerSimulator | None,
    console: Console,
    judge: CommunicationJudge | None = None,
) -> EvalResults:
    """Every agent on every play (a task's seed or dataset row, each trial), with a progress
    bar; ``customer`` answers in order cases (None: the deterministic simulator), ``judge``
    grades their communication (None: the reader). The episodes are listed case by case
    (each case's agents together)."""
    from novamart.evaluation.agents import LLM, agent_factory
    from novamart.evaluation.runner import run_episode
    from novamart.evaluation.sessions import open_session

    episodes: list[EpisodeResult] = []
    session = open_session(settings.env_url, customer, judge)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    try:
        makers = {agent: agent_factory(agent, session, llm) for agent in settings.agents}
        labels = {a: llm.model if a == LLM and llm else a for a in settings.agents}
        with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as bar:
            progress = bar.add_task("episodes", total=len(settings.agents) * len(plays))
            shown = ""
            # case by case, every agent in turn: the kernel's bounded memo of decisions
            # serves all agents of a case before it moves on (agent by agent, thousands of
            # cases later, each agent would meet every decision cold again)
            for play in plays:
                if play.label != shown:  # once per task: updates cost a redraw
                    bar.update(progress, description=play.label)
                    shown = play.label
                for agent in settings.agents:
                    result = run_episode(
                        session,
                        makers[agent](play.agent_seed),
                        agent,
                        play.task,
                        play.seed,
                        labels[agent],
                        row=play.row,
                        trial=play.trial,
                        **play.case,
                    )
                    episodes.append(result.model_copy(update={"task": play.label}))
                    bar.advance(progress)
    finally:
        session.close()
    return collect(settings, episodes)


def eval_command(
    ctx: typer.Context,
    agent: Agents,
    tasks: options.Tasks = None,
    episodes: options.Episodes = 10,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Episode i plays seed S+i.")] = 0,
    mode: options.Modes = None,
    policy_variant: options.PolicyVariant = None,
    trials: options.Trials = 1,
    dataset: options.Dataset = None,
    rules_dir: options.RulesDir = None,
    env_url: options.EnvUrl = None,
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
    out: OutPath = None,
    chart: ChartPath = None,
    markdown_path: MarkdownPath = None,
    html_path: HtmlPath = None,
    transcripts: Transcripts = None,
) -> None:
    """Evaluate agents: mean, std and pass^k per task; JSON, chart and reports on request."""
    from novamart.evaluation.agents import LLM, UnknownAgent, check_agent
    from novamart.evaluation.preflight import models, rules_in_process
    from novamart.evaluation.status import run_status

    agents = list(dict.fromkeys(options.split_list(agent)))
    if not agents:
        raise typer.BadParameter("name at least one agent", param_hint="--agent")
    for name in agents:
        try:
            check_agent(name, in_process=env_url is None)
        except UnknownAgent as exc:
            raise typer.BadParameter(str(exc), param_hint="--agent") from None
    plan = None if dataset is None else options.dataset_plan(ctx, dataset, tasks)
    task_names = plan.tasks if plan else options.ordered_tasks(tasks)
    called = models(
        LLM in agents,
        (model, api_base_url),
        (customer, customer_model, customer_api_base_url),
        (timeout, retries, backoff, episode_budget),
        env_url,
        (judge, judge_model, judge_api_base_url),
    )
    llm, speaker = (called.agent if LLM in agents else None), called.customer
    stdout, stderr = Console(), Console(stderr=True)
    played = options.modes(mode)
    seeds = options.episode_seeds(seed, episodes)
    plays = schedule(task_names, seeds, plan, played, policy_variant, trials)
    with rules_in_process(ctx, rules_dir, env_url) as version:
        settings = RunSettings(
            agents=agents,
            tasks=list(dict.fromkeys(p.label for p in plays)),
            modes=list(played),
            policy_variant=policy_variant,
            episodes=1 if plan else episodes,
            seed=None if plan else seed,
            trials=trials,
            dataset=None if dataset is None else str(dataset),
            env_url=env_url,
            model=llm.model if llm else None,
            customer="llm" if speaker else "simulated",
            customer_model=speaker.model if speaker else None,
            judge="llm" if called.judge else "reader",
            judge_model=called.judge.model if called.judge else None,
            rules_dir=None if rules_dir is None or env_url else str(rules_dir),
            rules_version=version,
        )
        paths = {"out": out, "chart": chart, "markdown": markdown_path, "html": html_path}
        settings.command = command_line(settings, llm, speaker, paths, transcripts, called.judge)
        results = run_all(settings, plays, llm, called.simulator, stderr, called.grader)
    for table in task_tables(results):
        stdout.print(table)
    failed = [e for e in results.episodes if e.error]
    if failed:
        stderr.print(f"[yellow]{len(failed)} episode(s) ended early; first: {failed[0].error}")
    write_outputs(results, out, chart, markdown_path, html_path, transcripts)
    status = run_status(results.episodes, fail_under)
    if status.code:
        typer.echo(f"Error: {status.message}", err=True)
        raise typer.Exit(status.code)


def write_outputs(
    results: EvalResults,
    out: Path | None,
    chart: Path | None,
    markdown_path: Path | None,
    html_path: Path | None,
    transcripts: int | None,
) -> None:
    """The files asked for; the reports link the chart relative to where they are."""
    from novamart.evaluation.chart import write_chart
    from novamart.evaluation.html_page import html
    from novamart.evaluation.markdown_page import markdown

    if out:
        write_json(results, out)
    if chart:
        write_chart(results, chart)
    for path, render in ((markdown_path, markdown), (html_path, html)):
        if path is None:
            continue
        link = os.path.relpath(chart, path.parent) if chart else None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(results, link, transcripts), encoding="utf-8")
