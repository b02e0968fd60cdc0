"""``rules diff`` for a person: what changed in the rules, the impact per task and policy,
and a few changed cases explained before and after."""

from __future__ import annotations

from pathlib import Path

from rich.table import Column, Table

from novamart.analyst.cli_common import console
from novamart.analyst.impact import ChangedCase, DiffReport, Outcome
from novamart.analyst.plan_impact import PlanImpact


def print_diff(report: DiffReport, seeds: int, new_dir: Path) -> None:
    """The report for a person; ``new_dir`` is the changed rules folder, for the hint that
    explains a shown case under it."""
    console.print(f"[bold]Rules[/bold] {report.old_version} -> {report.new_version}")
    if report.rule_changes:
        console.print("[bold]What changed in the rules:[/bold]")
        for line in report.rule_changes:
            console.print(f"  {line}", markup=False)
    else:
        console.print("The two rule sets are the same.")
    if report.articles_changed:
        console.print(
            f"Help-centre articles that now read differently: {', '.join(report.articles_changed)}"
        )
    generated = sum(t.generated for t in report.tasks)
    console.print(
        f"\n[bold]Impact[/bold] over {report.cases:,} cases: {generated:,} generated "
        f"({len(report.tasks)} tasks x {seeds} seeds) and their boundary variants "
        f"({report.distinct_fact_sets:,} distinct fact sets)"
    )
    table = Table(
        _names("task", [t.task for t in report.tasks]),
        "cases",
        "optimum changed",
        "amount changed",
        "generated cases changed",
    )
    for t in report.tasks:
        table.add_row(
            t.task,
            f"{t.cases:,}",
            f"{t.changed_optimum:,}",
            f"{t.changed_amount:,}",
            f"{t.generated_changed:,} of {t.generated:,}",
        )
    table.add_row(
        "[bold]all[/bold]",
        f"{report.cases:,}",
        f"{report.changed_optimum:,}",
        f"{report.changed_amount:,}",
        f"{sum(t.generated_changed for t in report.tasks):,}",
    )
    console.print(table)
    if report.policies:
        per_policy = Table(
            _names("policy", [p.policy for p in report.policies]),
            "verdict changes",
            "how",
            "became the optimum",
            "no longer the optimum",
        )
        for p in report.policies:
            how = ", ".join(f"{k}: {v:,}" for k, v in p.transitions.items())
            per_policy.add_row(
                p.policy,
                f"{p.verdicts_changed:,}",
                how,
                f"{p.optimum_gained:,}",
                f"{p.optimum_lost:,}",
            )
        console.print(per_policy)
    if report.shown:
        console.print(f"[bold]Changed cases[/bold] ({len(report.shown)} shown):")
        for case in report.shown:
            _print_case(case, new_dir)
    if report.plans is not None:
        _print_plans(report.plans)
    verdict = "changes decisions" if report.changed else "changes no decision"
    console.print(f"\nThe new rule set {verdict} in this scenario set.")


def _print_plans(plans: PlanImpact) -> None:
    """The examples' calls and requests, and the cases moved from them, whose plan changed."""
    console.print(
        f"\n[bold]Plans[/bold] over {plans.cases:,} cases (the examples' calls and requests, "
        f"and each moved one thing at a time: a fact, a collection's size, the members a "
        f"quantifier speaks of, an event"
        + (f"; {plans.drawn:,} drawn from the world" if plans.drawn else "")
        + f"): {len(plans.changed):,} changed"
    )
    if plans.note:
        console.print(f"  {plans.note}", markup=False)
    for change in plans.changed:
        moved = f", {change.variant}" if change.variant else ""
        where = f"{change.file}:{change.line} " if change.file else ""
        console.print(f"  {where}{change.example}{moved}", markup=False)
        console.print(f"    {change.how}: {change.before}  ->  {change.after}", markup=False)
        for reason in change.reasons:
            console.print(f"      why: {reason}", markup=False)


def _names(header: str, names: list[str]) -> Column:
    """A column of names that is never cut short (the other columns wrap instead)."""
    return Column(header, no_wrap=True, min_width=max(map(len, [header, *names])))


def _print_case(case: ChangedCase, new_dir: Path) -> None:
    where = f"{case.task} seed {case.seed}"
    if case.variant:
        where += f", with {case.variant}"
    console.print(f"  [bold]{where}[/bold]", highlight=False)
    console.print(f"    before: {_outcome(case.before)}", markup=False)
    console.print(f"    after:  {_outcome(case.after)}", markup=False)
    for policy, (was, now) in case.verdicts.items():
        console.print(f"    {policy}: {was} -> {now}", markup=False)
        for c in (c for c in case.conditions if c.policy == policy):
            console.print(f"      {c.condition}: {c.before}  ->  {c.after}", markup=False)
    if case.variant is None:
        console.print(
            f"    (novamart explain --task {case.task} --seed {case.seed} --rules-dir {new_dir})",
            style="dim",
            markup=False,
        )


def _outcome(outcome: Outcome) -> str:
    if outcome.resolution is None:
        return "no resolution"
    if not outcome.pays:
        return f"{outcome.resolution} under {outcome.policy}"
    amount = "unknown amount" if outcome.amount is None else f"{outcome.amount:.2f}"
    return f"{outcome.resolution} ({amount}) under {outcome.policy}"
