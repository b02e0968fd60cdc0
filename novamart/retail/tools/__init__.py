"""The retail tools: the look-ups (one small module each), the consulting check, the reply,
and the writes generated from the rulebook's declared resolutions; ``call`` is the one
dispatch path (an unknown name or bad arguments come back as a typed error, never raised)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from novamart.kernel import Rulebook
from novamart.retail.session import RetailSession
from novamart.retail.tools import (
    check_action,
    check_defect,
    find_customer,
    lookup_customer,
    lookup_order,
    lookup_product,
    respond,
)
from novamart.retail.tools.base import RetailTool
from novamart.retail.tools.writes import write_tools
from novamart.scenarios import Mode
from novamart.scenarios.tasks import RETAIL_LOOKUPS
from novamart.tools.args import describe, signature
from novamart.tools.base import Result, fail

LOOKUPS: dict[str, RetailTool] = {
    m.SPEC.name: m.SPEC
    for m in (
        find_customer,
        lookup_customer,
        lookup_order,
        lookup_product,
        check_defect,
        check_action,
    )
}
assert tuple(LOOKUPS) == RETAIL_LOOKUPS  # the names rules check accepts
RESPOND = respond.SPEC


_listed: dict[str, dict[str, RetailTool]] = {}


def retail_tools(rulebook: Rulebook) -> dict[str, RetailTool]:
    """Every retail tool under ``rulebook``: look-ups, its writes, the reply last (kept per
    rules version: every call looks its tool up here)."""
    found = _listed.get(rulebook.version)
    if found is None:
        found = _listed[rulebook.version] = {
            **LOOKUPS,
            **write_tools(rulebook),
            RESPOND.name: RESPOND,
        }
    return found


def offered(rulebook: Rulebook, mode: Mode) -> tuple[str, ...]:
    """The tools of a retail episode in ``mode`` (closed book consults no check)."""
    tools = retail_tools(rulebook).values()
    return tuple(t.name for t in tools if mode == "guided" or not t.guided_only)


def call(session: RetailSession, name: str, arguments: dict[str, Any]) -> Result:
    """One tool call as one step of ``session``."""
    session.step += 1
    session.tools_used.append(name)
    rulebook = session.kernel.rulebook
    tool = retail_tools(rulebook).get(name) if name in offered(rulebook, session.mode) else None
    if tool is None:
        return fail(
            "unknown_tool",
            f"no tool called {name!r} in a retail case ({session.mode}); tools: "
            f"{', '.join(offered(rulebook, session.mode))}",
        )
    try:
        args = tool.args.model_validate(arguments)
    except ValidationError as error:
        return fail(
            "invalid_arguments",
            f"bad arguments for {name}: {describe(error)}; expected {signature(name, tool.schema)}",
        )
    return tool.run(session, args)
