"""Write tools generated from resolutions.yaml: one per declared resolution, named by its
``tool:``, its arguments those the resolution declares, typed as declared.

So an analyst adds ``cancel_order`` with no code: the tool's schema is the declaration's,
pydantic refuses a missing argument or a value of the wrong type or outside a choice (a
typed ``invalid_arguments`` error; the session goes on), and the gate
(novamart.tools.resolve.resolve_call) checks that each id names a fact of the right kind.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, create_model

from novamart.episode import Episode
from novamart.kernel import Rulebook
from novamart.kernel.declared import ArgumentSpec
from novamart.kernel.facts import MAX_TEXT
from novamart.kernel.rulebook import ResolutionSpec
from novamart.tools.args import ToolArgs
from novamart.tools.base import Result, ToolSpec
from novamart.tools.resolve import resolve_call

MAX_IDS = 100
"""The most members one call may name (a collection's ids)."""

_cache: dict[str, dict[str, ToolSpec]] = {}


def declared_tools(rulebook: Rulebook) -> dict[str, ToolSpec]:
    """Tool name -> generated tool, for every resolution of ``rulebook`` that declares a
    call (memoised per rulebook version: the tools change only when the rules do)."""
    found = _cache.get(rulebook.version)
    if found is None:
        found = {
            spec.tool: _tool(name, spec)
            for name, spec in rulebook.resolutions.items()
            if spec.declares_call
        }
        _cache[rulebook.version] = found
    return found


def _tool(resolution: str, spec: ResolutionSpec) -> ToolSpec:
    fields: dict[str, Any] = {
        name: argument_field(name, argument) for name, argument in spec.arguments.items()
    }
    model = create_model(  # type: ignore[call-overload]
        f"{spec.tool.title().replace('_', '')}Args", __base__=ToolArgs, **fields
    )

    def run(episode: Episode, args: ToolArgs) -> Result:
        return resolve_call(episode, resolution, args.model_dump())

    return ToolSpec(
        name=spec.tool,
        kind="resolve",
        description=f"{spec.description} Carries out {resolution}; allowed only when a policy "
        "grants it on the established facts.",
        args=model,
        run=run,
    )


def argument_field(name: str, argument: ArgumentSpec) -> tuple[Any, Any]:
    """A pydantic field for one declared argument (its default, or required)."""
    about = (
        argument.describe
        or f"{name} ({argument.type}{f' of {argument.of}' if argument.of else ''})"
    )
    typed: Any
    if argument.type == "id":
        typed = Annotated[str, Field(min_length=1, max_length=64, description=about)]
    elif argument.type == "ids":
        member = Annotated[str, Field(min_length=1, max_length=64)]
        typed = Annotated[list[member], Field(min_length=1, max_length=MAX_IDS, description=about)]  # type: ignore[valid-type]
    elif argument.type == "choice":
        typed = Annotated[Literal[tuple(argument.values or ())], Field(description=about)]  # type: ignore[misc]
    elif argument.type == "money":
        typed = Annotated[float, Field(ge=0, le=1_000_000, description=about)]
    else:
        typed = Annotated[str, Field(max_length=MAX_TEXT, description=about)]
    return (typed, ... if argument.default is None else argument.default)
