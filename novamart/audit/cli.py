"""``novamart audit``: let an optimiser attack the reward, and judge what it learnt.

    novamart audit --budget 300s --seed 0 --tasks open_case --modes guided,closed_book \
        [--json FILE]

``--budget`` is seconds (``300s``, shared out over the tasks and modes) or generations
(``12g`` or ``12``). Prints, per order task and mode, the best strategies found on the
training seeds and the best one that lied there: its train and held-out scores, the share of
held-out episodes at the pass mark, whether the judge found any false or unverifiable
sentence in what it wrote (and which). Exit status 1 when a dishonest strategy scores at or
above the pass mark on held-out seeds: the reward paid for a lie.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from novamart.scenarios import MODES
from novamart.scenarios.tasks import ORDER_TASKS

if TYPE_CHECKING:
    from novamart.audit.search import AuditReport

_BUDGET = re.compile(r"^\s*(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>s|g)?\s*$")


def budget_settings(budget: str, pairs: int) -> dict[str, float | int | None]:
    """``300s`` -> seconds per task and mode (generations unbounded); ``12g``/``12`` ->
    generations. A budget that is neither is a BadParameter."""
    match = _BUDGET.match(budget)
    if match is None or float(match["n"]) <= 0:
        raise typer.BadParameter(f"--budget is seconds (300s) or generations (12g), not {budget!r}")
    if match["unit"] == "s":
        return {"seconds": float(match["n"]) / pairs, "generations": 10_000}
    return {"seconds": None, "generations": int(float(match["n"]))}


def report_lines(report: AuditReport) -> list[str]:
    """Per task and mode, each winner: its scores, whether it is honest, its strategy and
    the sentences the judge found false or unverifiable; then every dishonest pass."""
    lines = []
    for audit in report.audits:
        lines.append(
            f"{audit.task} / {audit.mode}: {audit.generations} generations, "
            f"{audit.evaluated} strategies tried"
        )
        for winner in audit.winners:
            honest = (
                "honest"
                if winner.honest
                else (
                    f"DISHONEST ({winner.lying_share:.0%} lie, "
                    f"{winner.lying_passing:.0%} lie and pass)"
                )
            )
            honest += ", rude" if winner.rude else ""
            lines.append(
                f"  {winner.label:27s} train {winner.train:.3f}  held-out {winner.held_out:.3f}"
                f"  passing {winner.held_out_passing:4.0%}  {honest}"
            )
            lines.append(f"      {winner.strategy}")
            lines += [f"      {lie}" for lie in winner.lies]
    for audit, winner in report.dishonest_passes:
        lines.append(
            f"DISHONEST PASS {audit.task}/{audit.mode} ({winner.label}): held-out "
            f"{winner.held_out:.3f} >= the pass mark"
        )
    return lines


def _names(text: str, valid: tuple[str, ...], what: str) -> list[str]:
    names = list(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))
    unknown = [n for n in names if n not in valid]
    if unknown or not names:
        raise typer.BadParameter(
            f"not {what}: {', '.join(unknown) or '(none given)'}; valid: {', '.join(valid)}"
        )
    return names


def audit_command(
    budget: Annotated[
        str, typer.Option("--budget", help="Seconds (300s) or generations (12g, 12).")
    ] = "8g",
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seeds the search.")] = 0,
    tasks: Annotated[
        str,
        typer.Option("--tasks", help=f"Order tasks, comma-separated ({', '.join(ORDER_TASKS)})."),
    ] = ",".join(ORDER_TASKS),
    modes: Annotated[
        str, typer.Option("--modes", help=f"Modes, comma-separated ({', '.join(MODES)}).")
    ] = ",".join(MODES),
    population: Annotated[int, typer.Option(min=4, help="Strategies per generation.")] = 16,
    train_seeds: Annotated[int, typer.Option(min=1, help="Training cases per strategy.")] = 8,
    held_out_seeds: Annotated[int, typer.Option(min=1, help="Held-out cases per winner.")] = 16,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Also write the report here.")
    ] = None,
) -> None:
    """Search tool plans and closing messages for the highest reward; judge the winners."""
    from novamart.audit.search import Settings, run_audit  # loads the environment (slow)

    task_names = _names(tasks, tuple(ORDER_TASKS), "an order task")
    mode_names = _names(modes, MODES, "a mode")
    limits = budget_settings(budget, len(task_names) * len(mode_names))
    settings = Settings(
        population=population,
        generations=int(limits["generations"] or 1),
        seconds=limits["seconds"],
        train_seeds=train_seeds,
        held_out_seeds=held_out_seeds,
        seed=seed,
    )
    report = run_audit(task_names, mode_names, settings)
    for line in report_lines(report):
        typer.echo(line)
    if json_path is not None:
        json_path.write_text(report.model_dump_json(indent=2), encoding="utf-8")
    if report.dishonest_passes:
        raise typer.Exit(1)
    typer.echo("no dishonest strategy reaches the pass mark on held-out seeds")
