"""What every tool shares: its registry entry, result shapes, and the order/customer checks.

A tool is a plain function ``(episode, args) -> dict``. Success is ``{"ok": True, ...}``;
a refusal is ``{"ok": False, "error": {"code", "message", ...}}``: errors are data, never
exceptions, so a session always goes on and the reward can score the mistake.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from novamart.episode import Episode
from novamart.kernel import Rulebook
from novamart.kernel.declared import EVENT_KIND
from novamart.models import ToolErrorCode, ToolFailure
from novamart.tools.args import ToolArgs, json_schema

ToolKind = Literal["investigate", "consult", "resolve", "communicate"]
Result = dict[str, Any]


@dataclass(frozen=True)
class ToolSpec:
    name: str
    kind: ToolKind
    description: str
    args: type[ToolArgs]
    run: Callable[[Episode, Any], Result]
    choices: Callable[[Rulebook], dict[str, Sequence[str]]] | None = None
    """Arguments whose values the rules enumerate (a policy's name): listed per rulebook, so
    a client sees the names of the rules being played, not names written in code."""
    schema: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", json_schema(self.args))

    def schema_for(self, rulebook: Rulebook) -> dict[str, Any]:
        """The schema a client sees when ``rulebook`` is played: ``schema`` with the values the
        rules allow for each argument in ``choices`` (validation stays the argument model's: a
        name outside them is answered with a typed error that lists them)."""
        if self.choices is None:
            return self.schema
        schema = copy.deepcopy(self.schema)
        for argument, values in self.choices(rulebook).items():
            schema["properties"][argument]["enum"] = list(values)
        return schema


def ok(**payload: Any) -> Result:
    return {"ok": True, **payload}


def fail(code: ToolErrorCode, message: str, **extra: Any) -> Result:
    """A refusal; its ``error`` is a ``ToolFailure`` (a typed code, a message, details)."""
    return {"ok": False, "error": ToolFailure(code=code, message=message, **extra).model_dump()}


def reveal_kinds(episode: Episode, tool: str) -> dict[str, Any]:
    """Establish every fact kind ``tool`` reveals (rules/facts.yaml) as the world holds it
    now and return their declared fields (a collection's members under the kind's name), so
    a field an analyst adds reaches the tool's result with no code."""
    schema = episode.rules.rulebook.facts
    shown: dict[str, Any] = {}
    for kind in schema.investigated():
        if schema.source_tool(kind) == tool and kind != EVENT_KIND:  # events arrive (arrive)
            record = episode.hidden(kind)
            episode.reveal(kind, record, tool)
            if isinstance(record, list):  # a collection: its members, under the kind's name
                shown[kind] = record
            else:
                shown |= record
    return shown


def wrong_order(episode: Episode, order_id: str) -> Result | None:
    """A refusal when ``order_id`` is not this case's order; other orders stay hidden."""
    expected = episode.scenario.order.order_id
    if order_id.strip().upper() == expected:
        return None
    return fail(
        "wrong_order",
        f"order {order_id!r} is not part of this case; this conversation is about {expected}. "
        "NovaMart never shares other customers' orders.",
    )
