"""``novamart explain``: why the policies decide as they do for a case or a set of facts.

    novamart explain --task loyalty_negotiation --seed 3 [--resolution full_refund] [--json]
    novamart explain --facts case.json [--resolution full_refund] [--json]
    novamart explain --facts order.json --each item      (then each item's own decision)

Each condition is shown with its test as written, the value observed and the tool that
revealed it, like ``opa eval --explain``; ``--resolution`` answers "why (not) this one".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

from novamart.analyst.cli_common import RulesDirOption, console, fail, kernel_or_exit, rules_dir
from novamart.analyst.explain import CaseExplanation, explain_case, explain_each, explain_facts
from novamart.kernel import Facts, FactSchema
from novamart.kernel.trace import ConditionTrace

COLOURS = {
    "eligible": "green",
    "blocked": "red",
    "undetermined": "yellow",
    "pass": "green",
    "fail": "red",
    "unknown": "yellow",
}


def explain_command(
    facts: Annotated[
        str | None, typer.Option("--facts", help="JSON file of facts, or - for stdin.")
    ] = None,
    task: Annotated[
        str | None, typer.Option("--task", help="Explain a generated case of this task.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", min=0, help="The case's seed (default: canonical).")
    ] = None,
    resolution: Annotated[
        str | None,
        typer.Option("--resolution", help="Also say why this resolution is (not) the outcome."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON contract.")] = False,
    each: Annotated[
        str | None,
        typer.Option("--each", help="Also decide each member of this collection (item)."),
    ] = None,
    option: RulesDirOption = None,
) -> None:
    """Explain what the policies decide, and why, for a case (--task/--seed) or facts."""
    if (facts is None) == (task is None):
        fail("give either --facts FILE or --task TASK [--seed N]")
    if seed is not None and task is None:
        fail("--seed needs --task")
    kernel = kernel_or_exit(rules_dir(None, option))
    per_item: dict[str, CaseExplanation] = {}
    try:
        if task is not None:
            explanation = explain_case(kernel, task, seed, resolution)
        else:
            read = _read_facts(facts or "-", kernel.rulebook.facts)
            explanation = explain_facts(kernel, read, resolution)
            if each is not None:
                per_item = explain_each(kernel, read, each, resolution)
    except ValueError as e:  # an unknown task, resolution or collection
        fail(str(e))
    if each is not None and task is not None:
        fail("--each needs --facts (generated cases hold no collections yet)")
    if as_json:
        document = explanation.model_dump(mode="json")
        if each is not None:
            document["each"] = {k: v.model_dump(mode="json") for k, v in per_item.items()}
        print(json.dumps(document, indent=2))
        return
    print_explanation(explanation)
    for item, traced in per_item.items():
        console.print(f"[bold]== {each} {item} ==[/bold]")
        print_explanation(traced)


def _read_facts(source: str, schema: FactSchema) -> Facts:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"invalid facts: cannot read {source}: {getattr(e, 'strerror', None) or e}")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"invalid facts: not JSON ({e.msg} at line {e.lineno}, column {e.colno})")
    try:
        return schema.validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "facts"
        message = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
        fail(f"invalid facts: {where}: {message}")


def print_explanation(explanation: CaseExplanation) -> None:
    if explanation.case is not None:
        case = explanation.case
        seed = "canonical case" if case.seed is None else f"seed {case.seed}"
        console.print(f"[bold]Case:[/bold] {case.task}, {seed}")
        console.print(f"  {case.opening}", markup=False)
    best = explanation.optimal
    console.print(
        f"[bold]Best resolution:[/bold] {best.resolution} under {best.policy} "
        f"(quality {best.quality:.2f}, amount {best.amount})"
        if best
        else "[bold]Best resolution:[/bold] none yet (a policy is still undetermined)"
        if any(p.status == "undetermined" for p in explanation.policies.values())
        else "[bold]Best resolution:[/bold] none: no policy grants anything here"
    )
    for name, policy in explanation.policies.items():
        console.print(
            f"\n[bold]{name}[/bold]: [{COLOURS[policy.status]}]{policy.status}[/] "
            f"[dim]({policy.file})[/dim]"
        )
        console.print(f"  {policy.clause}", markup=False, style="dim")
        width = max(len(c.name) for c in policy.conditions)
        tests = max(len(c.test) for c in policy.conditions)
        for c in policy.conditions:
            status = f"[{COLOURS[c.status]}]{c.status.upper():<7}[/]"
            line = f"{c.name:<{width}}  {c.test:<{tests}}  {_observed(c)}"
            console.print(f"  {status} ", end="")
            console.print(line, markup=False)
            detail = (c.reason or "") + (f" (ask {c.needs_tool})" if c.needs_tool else "")
            if detail and c.status != "pass":
                console.print(f"          {detail}", markup=False)
    console.print()
    if explanation.why_not is not None:
        console.print(f"[bold]Why {explanation.why_not.resolution}?[/bold]")
        console.print(f"  {explanation.why_not.summary}", markup=False)
    console.print(f"rules version {explanation.rules_version}", style="dim")


def _observed(c: ConditionTrace) -> str:
    if c.fact is None:
        return ""
    if c.observed is None:
        return "observed: unknown"
    return f"observed {_json(c.observed)} (from {c.source})"


def _json(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)
