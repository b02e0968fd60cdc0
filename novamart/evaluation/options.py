"""Command-line options shared by ``inference.py`` and ``novamart eval``, and the task list
they both accept (validated, then ordered easy -> medium -> hard)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from novamart.evaluation.chat import AGENT_VARIABLES, LLMSettings, ModelVariables
from novamart.evaluation.plays import DatasetPlan, plan_dataset
from novamart.scenarios import MODES, TASKS, get_task
from novamart.tickets.dataset import DatasetError

DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}
GIVEN = ("COMMANDLINE", "ENVIRONMENT")

Tasks = Annotated[
    list[str] | None,
    typer.Option(
        "--tasks",
        help=f"Tasks to run, comma-separated or repeated (default: all: {', '.join(TASKS)}).",
    ),
]
Episodes = Annotated[int, typer.Option("--episodes", min=1, help="Episodes per task.")]
Modes = Annotated[
    list[str] | None,
    typer.Option(
        "--mode",
        help=f"How order cases are played, comma-separated or repeated ({', '.join(MODES)}; "
        "default guided); each mode is a column.",
    ),
]
PolicyVariant = Annotated[
    int | None,
    typer.Option(
        "--policy-variant",
        min=0,
        help="Also play each order and retail task under policy variants, episode i under "
        "variant N+i "
        "(a 'task/variants' column per mode).",
    ),
]
EnvUrl = Annotated[
    str | None,
    typer.Option("--env-url", help="A running NovaMart server (default: in-process)."),
]

Dataset = Annotated[
    Path | None,
    typer.Option(
        "--dataset",
        help="A .csv or .jsonl file of tickets (seed 003 columns): each row is played once "
        "for each ticket task it can serve (default tasks: those its rows serve).",
        dir_okay=False,
    ),
]


def _default(field: str) -> object:
    return LLMSettings.model_fields[field].default


Model = Annotated[
    str | None,
    typer.Option("--model", help=f"Model name (env MODEL_NAME, else {_default('model')})."),
]
ApiBaseUrl = Annotated[
    str | None,
    typer.Option(
        "--api-base-url",
        help=f"OpenAI-compatible endpoint (env API_BASE_URL, else {_default('api_base_url')}).",
    ),
]
Timeout = Annotated[
    float | None,
    typer.Option(
        "--timeout", min=0.01, help=f"Seconds per model request ({_default('timeout_s')})."
    ),
]
Retries = Annotated[
    int | None,
    typer.Option("--retries", min=0, help=f"Retries of a failed request ({_default('retries')})."),
]
Backoff = Annotated[
    float | None,
    typer.Option(
        "--backoff", min=0.0, help=f"First wait before a retry, doubling ({_default('backoff_s')})."
    ),
]

Trials = Annotated[
    int,
    typer.Option(
        "--trials",
        min=1,
        help="Play every case (seed or dataset row) K times; pass^k is reported for k <= K.",
    ),
]
RulesDir = Annotated[
    Path | None,
    typer.Option(
        "--rules-dir",
        envvar="RULES_DIR",
        file_okay=False,
        help="The policy rule files to play, in this process (env RULES_DIR; default: the "
        "repository's rules/). A server at --env-url plays its own.",
    ),
]
FailUnder = Annotated[
    float | None,
    typer.Option(
        "--fail-under",
        min=0.0,
        max=1.0,
        help="Exit with status 1 when an agent's mean score is below SCORE (for CI).",
    ),
]
Customer = Annotated[
    str,
    typer.Option(
        "--customer",
        help="Who answers the agent's messages: 'simulated' (deterministic, the reference) "
        "or 'llm' (a model: env CUSTOMER_API_BASE_URL, CUSTOMER_MODEL_NAME, CUSTOMER_API_KEY).",
    ),
]
CustomerModel = Annotated[
    str | None,
    typer.Option(
        "--customer-model",
        help=f"The LLM customer's model (env CUSTOMER_MODEL_NAME, else {_default('model')}).",
    ),
]
CustomerApiBaseUrl = Annotated[
    str | None,
    typer.Option(
        "--customer-api-base-url",
        help="The LLM customer's endpoint (env CUSTOMER_API_BASE_URL, "
        f"else {_default('api_base_url')}).",
    ),
]
Judge = Annotated[
    str,
    typer.Option(
        "--judge",
        help="Who grades the communication term of order cases: 'reader' (deterministic, the "
        "reference) or 'llm' (a model through a rubric, the reader as fallback: env "
        "JUDGE_API_BASE_URL, JUDGE_MODEL_NAME, JUDGE_API_KEY).",
    ),
]
JudgeModel = Annotated[
    str | None,
    typer.Option(
        "--judge-model",
        help=f"The LLM judge's model (env JUDGE_MODEL_NAME, else {_default('model')}).",
    ),
]
JudgeApiBaseUrl = Annotated[
    str | None,
    typer.Option(
        "--judge-api-base-url",
        help=f"The LLM judge's endpoint (env JUDGE_API_BASE_URL, else {_default('api_base_url')}).",
    ),
]

EpisodeBudget = Annotated[
    float | None,
    typer.Option(
        "--episode-budget",
        min=0.01,
        help=f"Seconds of model time per episode ({_default('episode_budget_s')}).",
    ),
]


def split_list(values: list[str] | None) -> list[str]:
    """``["a,b", "c"]`` -> ``["a", "b", "c"]``; blanks dropped."""
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def ordered_tasks(values: list[str] | None) -> list[str]:
    """The named tasks (all when none), easy -> medium -> hard and, within a difficulty, in
    registry order (order cases, then ticket families), however they were named;
    typer.BadParameter if one is unknown."""
    names = split_list(values) or list(TASKS)
    try:
        specs = [get_task(name) for name in dict.fromkeys(names)]
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--tasks") from None
    registered = {name: i for i, name in enumerate(TASKS)}
    specs.sort(
        key=lambda spec: (
            DIFFICULTY_ORDER.get(spec.difficulty, len(DIFFICULTY_ORDER)),
            registered[spec.name],
        )
    )
    return [spec.name for spec in specs]


def modes(values: list[str] | None) -> tuple[str, ...]:
    """The modes named (guided when none), in the order given; typer.BadParameter if one is
    not a mode."""
    names = tuple(dict.fromkeys(split_list(values))) or ("guided",)
    unknown = [n for n in names if n not in MODES]
    if unknown:
        raise typer.BadParameter(
            f"unknown mode {', '.join(unknown)}; modes: {', '.join(MODES)}", param_hint="--mode"
        )
    return names


def episode_seeds(seed: int | None, episodes: int) -> list[int | None]:
    """Episode i plays seed ``seed + i``; without a seed, every episode is the canonical case."""
    return [None if seed is None else seed + i for i in range(episodes)]


def llm_settings(
    model: str | None,
    api_base_url: str | None,
    timeout: float | None,
    retries: int | None,
    backoff: float | None,
    episode_budget: float | None,
    variables: ModelVariables = AGENT_VARIABLES,
) -> LLMSettings:
    """Environment variables (``variables`` names them), overridden by whichever options
    were given."""
    return LLMSettings.from_environ(
        variables=variables,
        model=model,
        api_base_url=api_base_url,
        timeout_s=timeout,
        retries=retries,
        backoff_s=backoff,
        episode_budget_s=episode_budget,
    )


def fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2 (a usage error), no traceback."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(2)


def dataset_plan(ctx: typer.Context, path: Path, tasks: list[str] | None) -> DatasetPlan:
    """The episodes ``--dataset path`` plays, every row checked first; on a bad file or row,
    a task the file cannot serve or a seed option, ``fail`` with the message (file, row,
    column). What is not played is said on stderr."""
    named = [f"--{name}" for name in ("seed", "episodes") if given(ctx, name)]
    if named:
        fail(f"{' and '.join(named)} do not apply with --dataset: its rows are the cases")
    try:
        plan = plan_dataset(path, ordered_tasks(tasks), explicit=bool(split_list(tasks)))
    except DatasetError as exc:
        fail(str(exc))
    for note in plan.notes:
        typer.echo(note, err=True)
    return plan


def given(ctx: typer.Context, name: str, sources: tuple[str, ...] = GIVEN) -> bool:
    """Whether option ``name`` came from one of ``sources`` (default: the command line or
    the environment, not its default). By name: typer ships its own copy of click, whose
    ParameterSource is not click's."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in sources
