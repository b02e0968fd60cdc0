"""``novamart eval``: score agents on tasks over many seeded episodes, or over the rows of a
ticket dataset (``--dataset``: each row once per ticket task it serves).

    novamart eval --agent oracle,heuristic,random --tasks easy_refund --episodes 100 --seed 0 \
        --out results.json --chart chart.png --markdown results.md
    novamart eval --agent oracle,heuristic --dataset data/tickets_sample.csv

Prints one table per task (mean, std, pass^1..4); optionally writes the JSON results, a PNG
bar chart and a markdown page that names the command reproducing it. ``--agent llm`` plays
an OpenAI-compatible model, configured like inference.py.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from novamart.evaluation import options
from novamart.evaluation.chat import LLMSettings
from novamart.evaluation.plays import Play, schedule
from novamart.evaluation.report import markdown, task_tables
from novamart.evaluation.results import EpisodeResult, EvalResults, RunSettings, collect, write_json

# The agents, the runner and the chart load the environment (and with it OpenEnv's gradio)
# or matplotlib: imported when a run starts, so `novamart --help` and `novamart rules`
# stay quick.

MARKDOWN_TITLE = "NovaMart baseline scores"

Agents = Annotated[
    list[str],
    typer.Option("--agent", help="Agent names, comma-separated or repeated (llm = a model)."),
]
OutPath = Annotated[Path | None, typer.Option(help="Write the results as JSON here.")]
ChartPath = Annotated[Path | None, typer.Option(help="Write a PNG bar chart here.")]
MarkdownPath = Annotated[
    Path | None, typer.Option("--markdown", help="Write the tables as markdown here.")
]


def command_line(
    settings: RunSettings, llm: LLMSettings | None, paths: dict[str, Path | None]
) -> str:
    """The canonical command that reproduces a run (recorded in the JSON and markdown)."""
    parts = ["novamart", "eval", "--agent", ",".join(settings.agents)]
    parts += ["--tasks", ",".join(settings.tasks)]
    if settings.dataset is not None:
        parts += ["--dataset", settings.dataset]
    else:
        parts += ["--episodes", str(settings.episodes), "--seed", str(settings.seed)]
    if settings.modes != ["guided"]:
        parts += ["--mode", ",".join(settings.modes)]
    if settings.policy_variant is not None:
        parts += ["--policy-variant", str(settings.policy_variant)]
    if settings.env_url:
        parts += ["--env-url", settings.env_url]
    if llm is not None:
        parts += ["--model", llm.model, "--api-base-url", llm.api_base_url]
    for option, path in paths.items():
        if path is not None:
            parts += [f"--{option}", str(path)]
    return shlex.join(parts)


def run_all(
    settings: RunSettings, plays: list[Play], llm: LLMSettings | None, console: Console
) -> EvalResults:
    """Every agent on every play (a task's seed or dataset row), with a progress bar."""
    from novamart.evaluation.agents import LLM, agent_factory
    from novamart.evaluation.runner import run_episode
    from novamart.evaluation.sessions import open_session

    episodes: list[EpisodeResult] = []
    session = open_session(settings.env_url)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    try:
        with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as bar:
            progress = bar.add_task("episodes", total=len(settings.agents) * len(plays))
            for agent in settings.agents:
                make = agent_factory(agent, session, llm)
                label = llm.model if agent == LLM and llm else agent
                for play in plays:
                    bar.update(progress, description=f"{agent} · {play.task}")
                    seed = play.row.index if play.row else play.seed
                    case = {"mode": play.mode, "policy_variant": play.variant}
                    case = {k: v for k, v in case.items() if v not in (None, "guided")}
                    result = run_episode(
                        session,
                        make(seed),
                        agent,
                        play.task,
                        play.seed,
                        label,
                        row=play.row,
                        **case,
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
    dataset: options.Dataset = None,
    env_url: options.EnvUrl = None,
    model: options.Model = None,
    api_base_url: options.ApiBaseUrl = None,
    timeout: options.Timeout = None,
    retries: options.Retries = None,
    backoff: options.Backoff = None,
    episode_budget: options.EpisodeBudget = None,
    out: OutPath = None,
    chart: ChartPath = None,
    markdown_path: MarkdownPath = None,
) -> None:
    """Evaluate agents: mean, std and pass^k per task; JSON, chart and markdown on request."""
    from novamart.evaluation.agents import LLM, UnknownAgent, check_agent
    from novamart.evaluation.chart import write_chart

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
    llm = options.llm_settings(model, api_base_url, timeout, retries, backoff, episode_budget)
    llm = llm if LLM in agents else None
    played = options.modes(mode)
    plays = schedule(
        task_names, options.episode_seeds(seed, episodes), plan, played, policy_variant
    )
    settings = RunSettings(
        agents=agents,
        tasks=list(dict.fromkeys(p.label for p in plays)),
        modes=list(played),
        policy_variant=policy_variant,
        episodes=1 if plan else episodes,
        seed=None if plan else seed,
        dataset=None if dataset is None else str(dataset),
        env_url=env_url,
        model=llm.model if llm else None,
    )
    paths = {"out": out, "chart": chart, "markdown": markdown_path}
    settings.command = command_line(settings, llm, paths)
    stdout, stderr = Console(), Console(stderr=True)
    results = run_all(settings, plays, llm, stderr)
    for table in task_tables(results):
        stdout.print(table)
    failed = [e for e in results.episodes if e.error]
    if failed:
        stderr.print(f"[yellow]{len(failed)} episode(s) ended early; first: {failed[0].error}")
    if out:
        write_json(results, out)
    if chart:
        write_chart(results, chart)
    if markdown_path:
        link = os.path.relpath(chart, markdown_path.parent) if chart else None
        markdown_path.parent.mkdir(parents=True, exist_ok=True)
        markdown_path.write_text(markdown(results, MARKDOWN_TITLE, link), encoding="utf-8")
