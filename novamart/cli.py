"""The `novamart` command, for policy analysts and operators."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from novamart.evaluation.cli import eval_command
from novamart.kernel import Decision, PolicyKernel, RulebookError, load_rulebook
from novamart.kernel.examples import run_examples
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.server.cli import serve

app = typer.Typer(
    help="NovaMart: policy rules, explanations and the environment.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="Check and test the policy rule files.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")
console = Console()
errors = Console(stderr=True, soft_wrap=True)

RulesDir = Annotated[Path, typer.Argument(help="Folder of rule files.")]


def _load_kernel(rules_dir: Path) -> PolicyKernel:
    try:
        return PolicyKernel(rules_dir)
    except RulebookError as e:
        for issue in e.issues:
            errors.print(str(issue), markup=False, highlight=False)
        errors.print(f"[red]{len(e.issues)} problem(s) in {rules_dir}[/red]")
        raise typer.Exit(1) from None


@rules_app.command("check")
def rules_check(rules_dir: RulesDir = DEFAULT_RULES_DIR) -> None:
    """Validate the rule files; exit 1 listing every problem."""
    try:
        rulebook = load_rulebook(rules_dir)
    except RulebookError:
        _load_kernel(rules_dir)  # prints the problems and exits 1
        return
    console.print(
        f"[green]OK[/green] {len(rulebook.policies)} policies, "
        f"{len(rulebook.resolutions)} resolutions, {len(rulebook.examples)} examples "
        f"(version {rulebook.version})"
    )


@rules_app.command("test")
def rules_test(rules_dir: RulesDir = DEFAULT_RULES_DIR) -> None:
    """Run the examples written beside the rules, like a test runner."""
    results = run_examples(_load_kernel(rules_dir))
    for r in results:
        mark = "[green]PASS[/green]" if r.passed else "[red]FAIL[/red]"
        console.print(f"{mark} {r.example.file}:{r.example.line} {r.example.name}", highlight=False)
        for m in r.mismatches:
            console.print(f"     {m}", highlight=False)
    failed = sum(not r.passed for r in results)
    console.print(f"{len(results) - failed} passed, {failed} failed")
    raise typer.Exit(1 if failed else 0)


@app.command()
def explain(
    facts: Annotated[str, typer.Option("--facts", help="JSON file of facts, or - for stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON contract.")] = False,
    rules_dir: Annotated[Path, typer.Option(help="Folder of rule files.")] = DEFAULT_RULES_DIR,
) -> None:
    """Explain what the policies decide for a set of facts."""
    kernel = _load_kernel(rules_dir)
    decision = kernel.decide_raw(_read_facts(facts, kernel))
    if as_json:
        print(
            json.dumps(decision.model_dump(exclude={"policies": {"__all__": {"grants"}}}), indent=2)
        )
    else:
        _print_decision(decision)


def _read_facts(source: str, kernel: PolicyKernel) -> dict:
    def fail(message: str) -> typer.Exit:
        errors.print(f"invalid facts: {message}", markup=False, highlight=False)
        return typer.Exit(2)

    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"cannot read {source}: {getattr(e, 'strerror', None) or e}") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise fail(f"not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    try:
        kernel.rulebook.facts.validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "facts"
        message = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
        raise fail(f"{where}: {message}") from None
    return raw


def _print_decision(decision: Decision) -> None:
    best = decision.optimal
    console.print(
        f"[bold]Best resolution:[/bold] {best.resolution} under {best.policy} "
        f"(quality {best.quality:.2f}, amount {best.amount})"
        if best
        else "[bold]Best resolution:[/bold] none yet (a policy is still undetermined)"
    )
    table = Table("policy", "verdict", "condition", "status", "reason / tool")
    colours = {
        "eligible": "green",
        "blocked": "red",
        "undetermined": "yellow",
        "pass": "green",
        "fail": "red",
        "unknown": "yellow",
    }
    for name, verdict in decision.policies.items():
        for i, c in enumerate(verdict.conditions):
            detail = c.reason or ""
            if c.needs_tool:
                detail += f" (ask {c.needs_tool})"
            table.add_row(
                name if i == 0 else "",
                f"[{colours[verdict.status]}]{verdict.status}[/]" if i == 0 else "",
                c.name,
                f"[{colours[c.status]}]{c.status}[/]",
                detail,
            )
    console.print(table)


app.command("serve")(serve)
app.command("eval")(eval_command)


if __name__ == "__main__":
    app()
