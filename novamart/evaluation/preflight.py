"""What ``inference.py`` and ``novamart eval`` settle before the first episode: the keys
of the models they will call, the customer and the judge, and the rule files played in this
process.

Each problem stops the run at once with exit status 2 and one line (a broken rule set: one
line per problem), before any episode and before anything is sent over the network.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import typer

from novamart.evaluation.chat import AGENT_VARIABLES, ChatModel, LLMSettings, ModelVariables
from novamart.evaluation.llm_customer import CUSTOMER_VARIABLES, LLMCustomer
from novamart.evaluation.llm_judge import JUDGE_VARIABLES, LLMJudge
from novamart.evaluation.options import fail, given, llm_settings
from novamart.kernel import RulebookError, default_kernel

CUSTOMERS = ("simulated", "llm")
JUDGES = ("reader", "llm")
LLM = "llm"


def require_key(settings: LLMSettings, variables: ModelVariables) -> None:
    """Stop when a model that will be called has no key: nothing is sent without one."""
    if not settings.api_key:
        fail(variables.missing_key())


def wants_model(option: str, value: str, choices: tuple[str, ...], env_url: str | None) -> bool:
    """Whether ``--option value`` asks for a model (``llm``); stop on a value not among
    ``choices``, and on ``llm`` with --env-url: the customer and the judge play inside the
    environment, and a server plays its own deterministic ones."""
    if value not in choices:
        fail(f"--{option} must be one of {', '.join(choices)}, not {value!r}")
    if value == LLM and env_url is not None:
        fail(
            f"--{option} llm plays inside the environment, in this process; "
            f"a server at --env-url plays its own (deterministic) {option}"
        )
    return value == LLM


@dataclass(frozen=True)
class Models:
    """The models a run will call, their keys checked."""

    agent: LLMSettings
    """The agent's model settings (its key checked only when the agent is a model)."""
    customer: LLMSettings | None
    """The LLM customer's settings; None: the deterministic simulator answers."""
    simulator: LLMCustomer | None
    judge: LLMSettings | None = None
    """The LLM judge's settings; None: the deterministic reader grades communication."""
    grader: LLMJudge | None = None


Timing = tuple[float | None, int | None, float | None, float | None]
"""--timeout, --retries, --backoff, --episode-budget: shared by every model of a run."""
Role = tuple[str, str | None, str | None]
"""--customer / --judge, and that model's --*-model and --*-api-base-url."""


def _role_model(
    option: str,
    role: Role,
    choices: tuple[str, ...],
    variables: ModelVariables,
    timing: Timing,
    env_url: str | None,
) -> tuple[LLMSettings, ChatModel] | None:
    kind, model, base_url = role
    if not wants_model(option, kind, choices, env_url):
        return None
    settings = llm_settings(model, base_url, *timing, variables=variables)
    require_key(settings, variables)
    return settings, ChatModel(settings, variables=variables)


def models(
    agent_is_model: bool,
    agent: tuple[str | None, str | None],
    customer: Role,
    timing: Timing,
    env_url: str | None,
    judge: Role = ("reader", None, None),
) -> Models:
    """The agent's model ``(--model, --api-base-url)``, the customer ``(--customer,
    --customer-model, --customer-api-base-url)`` and the judge (``--judge``, ...), each
    configured from its own variables; stop (exit status 2) when a model to be called has no
    key, or the LLM customer or judge is asked for with --env-url."""
    settings = llm_settings(*agent, *timing)
    if agent_is_model:
        require_key(settings, AGENT_VARIABLES)
    speaker = _role_model("customer", customer, CUSTOMERS, CUSTOMER_VARIABLES, timing, env_url)
    grader = _role_model("judge", judge, JUDGES, JUDGE_VARIABLES, timing, env_url)
    return Models(
        settings,
        None if speaker is None else speaker[0],
        None if speaker is None else LLMCustomer(speaker[1]),
        None if grader is None else grader[0],
        None if grader is None else LLMJudge(grader[1]),
    )


@contextlib.contextmanager
def rules_in_process(
    ctx: typer.Context, rules_dir: Path | None, env_url: str | None
) -> Iterator[str | None]:
    """Play ``rules_dir`` in this process while the block runs, yielding the version played
    (None over --env-url, where the server's rules are played).

    The process-wide kernel is switched, as the server does with RULES_DIR, so the policy
    articles of the help centre follow the same rules; the previous rule files are restored
    after the block. ``--rules-dir`` with ``--env-url`` is refused; RULES_DIR in the
    environment is then left to the server (a note says so)."""
    if env_url is not None:
        if rules_dir is not None and given(ctx, "rules_dir", ("COMMANDLINE",)):
            fail("--rules-dir applies in this process; a server at --env-url plays its own")
        if rules_dir is not None:
            typer.echo(f"RULES_DIR={rules_dir} is not used: {env_url} plays its own", err=True)
        yield None
        return
    kernel = default_kernel()
    if rules_dir is None:
        yield kernel.version
        return
    previous = kernel.rules_dir
    try:
        version = kernel.reload(rules_dir)
    except RulebookError as exc:
        for issue in exc.issues:
            typer.echo(str(issue), err=True)
        fail(f"{len(exc.issues)} problem(s) in the rule files of {rules_dir}")
    try:
        yield version
    finally:
        kernel.reload(previous)
