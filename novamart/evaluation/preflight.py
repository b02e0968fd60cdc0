"""What ``inference.py`` and ``novamart eval`` settle before the first episode: the keys
of the models they will call, the customer, and the rule files played in this process.

Each problem stops the run at once with exit status 2 and one line (a broken rule set: one
line per problem), before any episode and before anything is sent over the network.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import typer

from novamart.evaluation.chat import AGENT_VARIABLES, ChatModel, LLMSettings, ModelVariables
from novamart.evaluation.llm_customer import CUSTOMER_VARIABLES, LLMCustomer
from novamart.evaluation.options import fail, given, llm_settings
from novamart.kernel import RulebookError, default_kernel

CustomerKind = Literal["simulated", "llm"]
CUSTOMERS: tuple[CustomerKind, ...] = ("simulated", "llm")


def require_key(settings: LLMSettings, variables: ModelVariables) -> None:
    """Stop when a model that will be called has no key: nothing is sent without one."""
    if not settings.api_key:
        fail(variables.missing_key())


def customer_kind(value: str, env_url: str | None) -> CustomerKind:
    if value not in CUSTOMERS:
        fail(f"--customer must be one of {', '.join(CUSTOMERS)}, not {value!r}")
    if value == "llm" and env_url is not None:
        fail(
            "--customer llm plays the customer inside the environment, in this process; "
            "a server at --env-url answers with its own (deterministic) customer"
        )
    return "llm" if value == "llm" else "simulated"


@dataclass(frozen=True)
class Models:
    """The models a run will call, their keys checked."""

    agent: LLMSettings
    """The agent's model settings (its key checked only when the agent is a model)."""
    customer: LLMSettings | None
    """The LLM customer's settings; None: the deterministic simulator answers."""
    simulator: LLMCustomer | None


Timing = tuple[float | None, int | None, float | None, float | None]
"""--timeout, --retries, --backoff, --episode-budget: shared by every model of a run."""


def models(
    agent_is_model: bool,
    agent: tuple[str | None, str | None],
    customer: tuple[str, str | None, str | None],
    timing: Timing,
    env_url: str | None,
) -> Models:
    """The agent's model ``(--model, --api-base-url)`` and the customer ``(--customer,
    --customer-model, --customer-api-base-url)``, each configured from its own variables;
    stop (exit status 2) when a model to be called has no key, or the LLM customer is asked
    for with --env-url."""
    settings = llm_settings(*agent, *timing)
    if agent_is_model:
        require_key(settings, AGENT_VARIABLES)
    kind, model, base_url = customer
    if customer_kind(kind, env_url) == "simulated":
        return Models(settings, None, None)
    speaker = llm_settings(model, base_url, *timing, variables=CUSTOMER_VARIABLES)
    require_key(speaker, CUSTOMER_VARIABLES)
    return Models(settings, speaker, LLMCustomer(ChatModel(speaker, variables=CUSTOMER_VARIABLES)))


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
