"""``novamart rules``: check, test and diff the policy rule files.

    novamart rules check [--rules-dir DIR]
    novamart rules test [--rules-dir DIR] [-k PATTERN] [--coverage] [--min-coverage P] [--json]
    novamart rules diff OLD NEW [--seeds N] [--tasks T,U] [--show K] [--json]

The rules directory may also be given as the first argument (the older form).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from novamart.analyst.cases import policy_tasks
from novamart.analyst.checks import check_rules, world_problems
from novamart.analyst.cli_common import (
    RulesDirArgument,
    RulesDirOption,
    ToolCheck,
    compiled_or_exit,
    console,
    fail,
    kernel_or_exit,
    print_issues,
    rules_dir,
)
from novamart.analyst.diff_report import print_diff
from novamart.analyst.examples_report import ExamplesReport, examples_report
from novamart.analyst.impact import DEFAULT_SHOWN, diff_rules
from novamart.analyst.scenario_set import DEFAULT_SEEDS
from novamart.kernel import RulebookError
from novamart.kernel.coverage import CoverageReport
from novamart.scenarios.retail_world import WORLD_FILE

rules_app = typer.Typer(help="Check, test and compare the policy rule files.", no_args_is_help=True)


@rules_app.command("check")
def rules_check(
    positional: RulesDirArgument = None, option: RulesDirOption = None, tool_check: ToolCheck = True
) -> None:
    """Validate the rule files, and those of each rulebook kept beside them (a subfolder with
    a world: rules/retail); exit 1 listing every problem (file, line, what to do)."""
    directory = rules_dir(positional, option)
    passed = [_checked(directory, tool_check)]
    if directory.is_dir():
        beside = (f for f in sorted(directory.iterdir()) if (f / WORLD_FILE).is_file())
        passed += [_checked(folder, tool_check, folder.name) for folder in beside]
    if not all(passed):  # every folder checked, each one's problems listed
        raise typer.Exit(1)


def _checked(directory: Path, tool_check: bool, name: str = "") -> bool:
    """Whether ``directory`` passes every check; its problems printed, or its summary."""
    try:
        rulebook = check_rules(directory, tool_check)
    except RulebookError as e:
        print_issues(e.issues, directory)
        return False
    if problems := world_problems(directory):
        print_issues(problems, directory)
        return False
    console.print(
        f"[green]OK[/green] {f'{name}: ' if name else ''}{len(rulebook.policies)} policies, "
        f"{len(rulebook.resolutions)} resolutions, {len(rulebook.examples)} examples "
        f"(version {rulebook.version})"
    )
    return True


Pattern = Annotated[
    str | None,
    typer.Option(
        "-k",
        help="Run only the examples whose policy, file or name contains PATTERN "
        "(case-insensitive).",
    ),
]
WithCoverage = Annotated[
    bool,
    typer.Option(
        "--coverage",
        help="Also report what the examples exercise: each condition passing and failing, "
        "each grant, n-1/n/n+1 around each numeric threshold.",
    ),
]
MinCoverage = Annotated[
    float | None,
    typer.Option(
        "--min-coverage",
        min=0,
        max=100,
        help="Exit 1 when coverage is below this percentage (implies --coverage).",
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the report as JSON.")]


@rules_app.command("test")
def rules_test(
    positional: RulesDirArgument = None,
    option: RulesDirOption = None,
    pattern: Pattern = None,
    with_coverage: WithCoverage = False,
    min_coverage: MinCoverage = None,
    as_json: AsJson = False,
    tool_check: ToolCheck = True,
) -> None:
    """Run the examples written beside the rules, like a test runner; exit 1 on a failure."""
    directory = rules_dir(positional, option)
    kernel = kernel_or_exit(directory, tool_check)
    report = examples_report(kernel, pattern, with_coverage or min_coverage is not None)
    if not report.examples:
        fail(f"no example matches -k {pattern!r} ({report.deselected} examples in {directory})", 1)
    if as_json:
        print(json.dumps(report.model_dump(), indent=2))
    else:
        _print_report(report)
    too_low = report.coverage is not None and min_coverage is not None
    if report.failed or (too_low and report.coverage.percent < min_coverage):
        raise typer.Exit(1)


def _print_report(report: ExamplesReport) -> None:
    for e in report.examples:
        mark = "[green]PASS[/green]" if e.passed else "[red]FAIL[/red]"
        console.print(f"{mark} {e.file}:{e.line} {e.name}")
        for m in e.mismatches:
            console.print(f"     {m}", markup=False)
    deselected = f" ({report.deselected} deselected by -k)" if report.deselected else ""
    console.print(f"{report.passed} passed, {report.failed} failed{deselected}")
    if report.coverage is not None:
        _print_coverage(report.coverage)


def _print_coverage(report: CoverageReport) -> None:
    table = Table("policy", "covered", "of", "%", title="Coverage")
    for p in report.policies:
        share = 100 * p.covered / p.total if p.total else 100
        table.add_row(p.policy, str(p.covered), str(p.total), f"{share:.0f}")
    table.add_row("[bold]all[/bold]", str(report.covered), str(report.total), f"{report.percent}")
    console.print(table)
    uncovered = report.uncovered()
    if not uncovered:
        console.print("[green]Every condition, grant and threshold is covered.[/green]")
        return
    console.print(f"Not covered ({len(uncovered)}):")
    for item in uncovered:
        console.print(f"  {item.file}:{item.line} {item.policy}: {item.description}", markup=False)


Seeds = Annotated[
    int, typer.Option("--seeds", min=1, help="Seeds per task (each with its boundary variants).")
]
Tasks = Annotated[
    str | None,
    typer.Option("--tasks", help="Comma-separated tasks (default: every task the rules decide)."),
]
Shown = Annotated[int, typer.Option("--show", min=0, help="Changed cases to explain.")]


@rules_app.command("diff")
def rules_diff(
    old: Annotated[Path, typer.Argument(help="The rules directory as it is now.")],
    new: Annotated[Path, typer.Argument(help="The rules directory with your change.")],
    seeds: Seeds = DEFAULT_SEEDS,
    tasks: Tasks = None,
    show: Shown = DEFAULT_SHOWN,
    as_json: AsJson = False,
    tool_check: ToolCheck = True,
) -> None:
    """What a change does: every task's cases decided under OLD and NEW, the decisions
    that change per task and policy, a few explained. Exit 0: no change; 1: changes."""
    chosen = [t.strip() for t in tasks.split(",") if t.strip()] if tasks else None
    unknown = sorted(set(chosen or ()) - set(policy_tasks()))
    if unknown:
        fail(
            f"unknown tasks {', '.join(unknown)}; tasks the rules decide: "
            f"{', '.join(policy_tasks())}"
        )
    before = compiled_or_exit(old, tool_check=tool_check)
    after = compiled_or_exit(new, tool_check=tool_check)
    report = diff_rules(before, after, chosen, seeds, show, world_dir=new)
    if as_json:
        print(json.dumps(report.model_dump(), indent=2))
    else:
        print_diff(report, seeds, new)
    raise typer.Exit(1 if report.changed else 0)
