"""``novamart explain``: why the policies decide as they do for a case or a set of facts.

    novamart explain --task loyalty_negotiation --seed 3 [--resolution full_refund] [--json]
    novamart explain --facts case.json [--resolution full_refund] [--json]
    novamart explain --facts order.json --each item      (then each item's own decision)
    novamart explain --facts order.json --requests asked.json    (the best plan, per request)
    novamart explain --rules-dir rules/retail --example "two delivered items"   (an example's plan)

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

from novamart.analyst.cli_common import (
    RulesDirOption,
    ToolCheck,
    console,
    fail,
    kernel_or_exit,
    rules_dir,
)
from novamart.analyst.explain import (
    CaseExplanation,
    PlanExplanation,
    explain_case,
    explain_each,
    explain_example,
    explain_facts,
    explain_requests,
    find_example,
)
from novamart.analyst.plan_detail import MemberCheck
from novamart.kernel import Facts, FactSchema, PolicyKernel
from novamart.kernel.declared import parse_request
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
    requests: Annotated[
        str | None,
        typer.Option(
            "--requests",
            help="JSON file of the customer's requests ({requests: [...], before_each: "
            "[events]}): explain the best plan for them, request by request.",
        ),
    ] = None,
    example: Annotated[
        str | None,
        typer.Option(
            "--example",
            help="Explain the plan of this example of the rules (its name, or a part of it "
            "only one example's name holds), step by step.",
        ),
    ] = None,
    option: RulesDirOption = None,
    tool_check: ToolCheck = True,
) -> None:
    """Explain what the policies decide, and why, for a case (--task/--seed) or facts."""
    if example is not None:
        if facts is not None or task is not None:
            fail("--example explains the example's own facts: give no --facts or --task")
        kernel = kernel_or_exit(rules_dir(None, option), tool_check)
        _explain_example(kernel, example, as_json)
        return
    if (facts is None) == (task is None):
        fail("give either --facts FILE or --task TASK [--seed N], or --example NAME")
    if seed is not None and task is None:
        fail("--seed needs --task")
    kernel = kernel_or_exit(rules_dir(None, option), tool_check)
    if requests is not None:
        if facts is None:
            fail("--requests needs --facts")
        _explain_requests(kernel, _read_facts(facts, kernel.rulebook.facts), requests, as_json)
        return
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


def _explain_requests(kernel: PolicyKernel, facts: Facts, source: str, as_json: bool) -> None:
    raw = _read_json(source, "requests")
    asked = raw if isinstance(raw, list) else raw.get("requests") if isinstance(raw, dict) else None
    before = raw.get("before_each", []) if isinstance(raw, dict) else []
    if not isinstance(asked, list) or not all(isinstance(r, dict) for r in asked):
        fail("invalid requests: give a list of requests, or {requests: [...], before_each: [...]}")
    try:
        parsed = [parse_request(kernel.rulebook.declared, r) for r in asked]
        explained = explain_requests(kernel, facts, parsed, list(before))
    except ValueError as e:  # a request that does not fit, an unknown event
        fail(f"invalid requests: {e}")
    if as_json:
        print(json.dumps(explained.model_dump(mode="json"), indent=2))
        return
    print_plan(explained)


def _explain_example(kernel: PolicyKernel, name: str, as_json: bool) -> None:
    try:
        explained = explain_example(kernel, find_example(kernel, name))
    except ValueError as e:
        fail(str(e))
    if as_json:
        print(json.dumps(explained.model_dump(mode="json"), indent=2))
        return
    print_plan(explained)


def print_plan(plan: PlanExplanation) -> None:
    """The best plan, step by step: the call, its outcome and why, what it was decided on."""
    order = ", ".join(f"request {s.request}" for s in plan.steps)
    done = sum(s.status == "carried out" for s in plan.steps)
    title = "Best plan" if plan.how == "best plan" else "Plan in the order written"
    console.print(
        f"[bold]{title}:[/bold] {done} of {len(plan.steps)} requests carried out ({order})"
    )
    for s in plan.steps:
        colour = "green" if s.status == "carried out" else "red"
        outcome = f"{s.status.upper()}" + (
            f" with {s.granted}" if s.granted and s.status == "declined" else ""
        )
        amount = f", amount {s.amount}" if s.amount is not None else ""
        console.print(
            f"\n[bold]step {s.step}: request {s.request}[/bold] [{colour}]{outcome}[/]{amount}"
        )
        console.print(f"  {s.resolution} {_json(s.arguments)}", markup=False)
        console.print("  decided on:")
        for line in _world(s.state):
            console.print(f"    {line}", markup=False)
        happened = [e for e, v in s.events.items() if v is True]
        console.print(f"  events so far: {', '.join(happened) or 'none'}", markup=False)
        if s.requires:
            needed = ", ".join(f"{e} {'yes' if v else 'MISSING'}" for e, v in s.requires.items())
            console.print(f"  requires: {needed}", markup=False)
        for m in s.members:
            console.print(f"  {_member(m)}", markup=False)
        for reason in s.reasons:
            console.print(f"  why: {reason}", markup=False)
        why = s.explanation.why_not
        if why is not None and s.status != "carried out":
            console.print(f"  {why.summary}", markup=False)
        for change in s.changed:
            console.print(f"  changed: {change}", markup=False)
        for other in s.alternatives:
            outcome = other.granted if other.status == "carried out" else other.status
            amount = f" {other.amount:g}" if other.amount is not None else ""
            why = f": {'; '.join(other.reasons)}" if other.reasons else ""
            console.print(
                f"  instead: {other.resolution} {_json(other.arguments)} -> {outcome}{amount}{why}",
                markup=False,
            )
    console.print("\n[bold]After the plan:[/bold]")
    for line in _world(plan.after):
        console.print(f"  {line}", markup=False)
    console.print(f"rules version {plan.rules_version}", style="dim")


def _member(m: MemberCheck) -> str:
    """``item I3: FAIL return_delivered.items_delivered (all: ...): why``; under ``any`` a
    member matches or not (one match is enough)."""
    said = {"pass": "PASS", "fail": "FAIL", "unknown": "UNKNOWN"}
    if m.quantifier == "any":
        said = {"pass": "MATCHES", "fail": "no match", "unknown": "UNKNOWN"}
    why = f": {m.reason}" if m.reason and m.quantifier == "all" else ""
    test = f"({m.quantifier} {m.kind}: {m.test})"
    return f"{m.kind} {m.member}: {said[m.status]} {m.policy}.{m.condition} {test}{why}"


def _world(state: dict[str, Any]) -> list[str]:
    """One line per fact: ``order #W1: status delivered``, ``item I1: price 50.0, selected``
    (a true/false field named only when true, the identifier as the label)."""
    lines = []
    for kind, value in state.items():
        members = value if value and all(isinstance(v, dict) for v in value.values()) else None
        for label, fields in (members or {"": value}).items():
            shown = [
                k if v is True else f"{k} {_json(v)}"
                for k, v in fields.items()
                if v is not False and not (k.endswith("_id") and (members or k == f"{kind}_id"))
            ]
            ident = label or next((str(v) for k, v in fields.items() if k == f"{kind}_id"), "")
            lines.append(f"{kind} {ident}".strip() + f": {', '.join(shown)}")
    return lines


def _read_json(source: str, what: str) -> Any:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(f"invalid {what}: cannot read {source}: {getattr(e, 'strerror', None) or e}")
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"invalid {what}: not JSON ({e.msg} at line {e.lineno}, column {e.colno})")


def _read_facts(source: str, schema: FactSchema) -> Facts:
    raw = _read_json(source, "facts")
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
