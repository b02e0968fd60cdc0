"""The tool registry: name -> ToolSpec (function, argument model, JSON schema, description).

``call_tool`` is the one dispatch path: it validates the arguments against the tool's model
and runs the tool, turning an unknown name or bad arguments into an error result (data, with
a typed code) instead of an exception. A new tool is one module with a ``SPEC`` plus a line
here; a task offers it by naming it in its TaskSpec.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from novamart.episode import TRANSIENT, Episode
from novamart.scenarios import Mode, TaskSpec
from novamart.scenarios.tasks import WORLD_TOOLS
from novamart.tools import (
    check_loyalty,
    check_payment,
    check_policy,
    escalate_to_manager,
    find_user,
    issue_store_credit,
    lookup_order,
    process_exchange,
    process_refund,
    respond_to_customer,
    verify_defect,
)
from novamart.tools.args import describe, signature
from novamart.tools.base import Result, ToolSpec, fail
from novamart.tools.declared import declared_tools

TOOLS: dict[str, ToolSpec] = {
    module.SPEC.name: module.SPEC
    for module in (
        lookup_order,
        check_policy,
        verify_defect,
        check_loyalty,
        process_refund,
        issue_store_credit,
        process_exchange,
        escalate_to_manager,
        respond_to_customer,
    )
}


WORLD: dict[str, ToolSpec] = {
    module.SPEC.name: module.SPEC for module in (find_user, check_payment)
}
"""The look-up tools of a declared world (its write tools are generated: ``tool_named``)."""
assert tuple(WORLD) == WORLD_TOOLS  # the names rules check accepts (novamart.analyst.checks)


def tool_named(episode: Episode, name: str) -> ToolSpec | None:
    """The tool ``name`` of the episode's task: built in, a world's look-up, or generated
    from a resolution the rules being played declare."""
    if name not in episode.offered:
        return None
    built_in = TOOLS.get(name) or WORLD.get(name)
    return built_in or declared_tools(episode.rules.rulebook).get(name)


def offered(task: TaskSpec, mode: Mode) -> tuple[str, ...]:
    """The task's tools in ``mode``: closed book consults no policy tool (the handbook in the
    instructions takes its place)."""
    if mode == "guided":
        return task.tools
    return tuple(t for t in task.tools if t not in TOOLS or TOOLS[t].kind != "consult")


def call_tool(episode: Episode, name: str, arguments: dict[str, Any]) -> Result:
    """Run tool ``name`` of the episode's task; errors come back as results. A tool the case
    makes fail transiently answers its first well-formed call with ``service_unavailable``."""
    spec = tool_named(episode, name)
    if spec is None:
        return fail(
            "unknown_tool",
            f"no tool called {name!r} in task {episode.task.name} ({episode.mode}); "
            f"tools: {', '.join(episode.offered)}",
        )
    try:
        args = spec.args.model_validate(arguments)
    except ValidationError as error:
        return fail(
            "invalid_arguments",
            f"bad arguments for {name}: {describe(error)}; expected {signature(name, spec.schema)}",
        )
    if name in episode.faults:
        episode.faults.discard(name)
        return fail(
            TRANSIENT,
            f"{name} is temporarily unavailable; the same call should work if you try again",
            retryable=True,
        )
    return spec.run(episode, args)
