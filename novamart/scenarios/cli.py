"""``novamart scenarios``: what the generated cases of each order task come to under a rule
set, so an analyst sees what an edit does to the tasks before anyone trains on them.

    novamart scenarios --tasks open_case --cases 1000 --seed 0 [--rules-dir DIR]
        [--policy-variant N] [--json FILE]

Per task: how often each policy condition passes and fails (and what the task's character
allows it: both, pass only, fail only; the fallback follows the others), the distribution of
the optimal resolution (and by granting policy), how many resolutions are allowed at once,
and the entropy of the optimum in bits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from novamart.kernel import PolicyKernel, RulebookError
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.report import TaskReport, task_report
from novamart.scenarios.tasks import ORDER_TASKS


def scenarios_command(
    tasks: Annotated[
        str,
        typer.Option("--tasks", help=f"Order tasks, comma-separated ({', '.join(ORDER_TASKS)})."),
    ] = ",".join(ORDER_TASKS),
    cases: Annotated[int, typer.Option("--cases", min=1, help="Seeded cases per task.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The first seed.")] = 0,
    rules_dir: Annotated[Path, typer.Option(help="Folder of rule files.")] = DEFAULT_RULES_DIR,
    policy_variant: Annotated[
        int | None, typer.Option("--policy-variant", min=0, help="Draw under this policy variant.")
    ] = None,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the reports here.")
    ] = None,
) -> None:
    """How each order task's generated cases come out: conditions, optimum, entropy."""
    names = [t.strip() for t in tasks.split(",") if t.strip()]
    unknown = [t for t in names if t not in ORDER_TASKS]
    if unknown or not names:
        raise typer.BadParameter(
            f"not an order task: {', '.join(unknown) or '(none given)'}; "
            f"order tasks: {', '.join(ORDER_TASKS)}",
            param_hint="--tasks",
        )
    errors = Console(stderr=True, soft_wrap=True)
    try:
        kernel = PolicyKernel(rules_dir)
    except RulebookError as exc:
        errors.print(str(exc), markup=False, highlight=False)
        raise typer.Exit(1) from None
    rules = kernel.snapshot() if policy_variant is None else kernel.variant(policy_variant)
    reports = []
    console = Console()
    for name in names:
        try:
            report = task_report(name, rules, range(seed, seed + cases))
        except ScenarioError as exc:
            errors.print(f"{name}: {exc}", markup=False, highlight=False)
            raise typer.Exit(1) from None
        reports.append(report)
        for table in tables(report, seed):
            console.print(table)
    if json_path is not None:
        payload = "[\n" + ",\n".join(r.model_dump_json(indent=2) for r in reports) + "\n]\n"
        json_path.write_text(payload, encoding="utf-8")


def tables(report: TaskReport, seed: int) -> list[Table]:
    n = report.cases
    seeds = f"seeds {seed}..{seed + n - 1}"
    conditions = Table(
        "condition", "passes", "fails", "share", "allowed",
        title=f"{report.task}: {n} cases ({seeds}), rules version {report.rules_version}",
        title_justify="left",
    )  # fmt: skip
    allowed = {(True, True): "both", (True, False): "pass", (False, True): "fail"}
    for key, count in report.conditions.items():
        conditions.add_row(
            key,
            str(count.passed),
            str(count.failed),
            f"{count.passed / n:.1%}",
            allowed.get((count.can_pass, count.can_fail), "others"),
        )
    conditions.columns[0].no_wrap = True
    optimum = Table(
        "optimal resolution", "cases", "share",
        title=f"{report.task}: optimum entropy {report.entropy_bits:.3f} bits "
        f"({report.entropy_by_policy_bits:.3f} by granting policy)",
        title_justify="left",
    )  # fmt: skip
    for name, count in report.optimal.items():
        optimum.add_row(name, str(count), f"{count / n:.1%}")
    for name, count in report.optimal_by_policy.items():
        optimum.add_row(f"  {name}", str(count), f"{count / n:.1%}")
    for allowed, count in report.open_at_once.items():
        optimum.add_row(f"{allowed} resolution(s) allowed at once", str(count), f"{count / n:.1%}")
    return [conditions, optimum]
