"""Evaluation results as tables: rich tables for the terminal, markdown for the docs.

One table per task (agent rows: n, mean, std, pass^1..4), plus an overview of mean scores
with one column per task.
"""

from __future__ import annotations

from rich.table import Table

from novamart.evaluation.results import CellResult, EvalResults
from novamart.evaluation.stats import PASS_KS, PASS_THRESHOLD

COLUMNS = ["agent", "n", "mean", "std", *(f"pass^{k}" for k in PASS_KS)]


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _row(cell: CellResult) -> list[str]:
    s = cell.summary
    return [
        cell.agent,
        str(s.n),
        _fmt(s.mean),
        _fmt(s.std),
        *(_fmt(s.pass_hat[k]) for k in PASS_KS),
    ]


def _tasks(results: EvalResults) -> list[str]:
    return [t for t in results.settings.tasks if any(c.task == t for c in results.cells)]


def task_tables(results: EvalResults) -> list[Table]:
    tables = []
    for task in _tasks(results):
        table = Table(title=f"{task} (pass: score >= {PASS_THRESHOLD})", title_justify="left")
        table.add_column("agent", no_wrap=True)
        for column in COLUMNS[1:]:
            table.add_column(column, justify="right")
        for cell in results.cells:
            if cell.task == task:
                table.add_row(*_row(cell))
        tables.append(table)
    return tables


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    aligns = [":---" if i == 0 else "---:" for i in range(len(header))]
    return [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(aligns) + " |",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def overview_markdown(results: EvalResults) -> list[str]:
    """Mean ± std per agent (rows) and task (columns)."""
    tasks = _tasks(results)
    cells = {(c.agent, c.task): c.summary for c in results.cells}
    rows = [
        [agent, *(f"{cells[agent, t].mean:.3f} ± {cells[agent, t].std:.3f}" for t in tasks)]
        for agent in results.settings.agents
        if all((agent, t) in cells for t in tasks)
    ]
    return _md_table(["agent", *tasks], rows)


def markdown(results: EvalResults, title: str, chart: str | None = None) -> str:
    """A markdown page: the command that produced it, the overview, one table per task."""
    s = results.settings
    lines = [
        f"# {title}",
        "",
        f"{s.scope()}; an episode passes at "
        f"score >= {PASS_THRESHOLD}. pass^k is the chance that k episodes all pass "
        "(unbiased estimate C(c,k)/C(n,k) from c passes in n episodes); std is the sample "
        "standard deviation. Produced from the repository root, with the project installed "
        "(`novamart` is `.venv/bin/novamart`), by:",
        "",
        "```bash",
        s.command,
        "```",
        "",
        "## Mean score (± std)",
        "",
        *overview_markdown(results),
        "",
    ]
    if chart:
        lines += [f"![mean score per task and agent]({chart})", ""]
    for task in _tasks(results):
        rows = [_row(c) for c in results.cells if c.task == task]
        lines += [f"## {task}", "", *_md_table(COLUMNS, rows), ""]
    if s.dataset is not None:
        lines += [f"## Score per row of {s.dataset}", "", *rows_markdown(results), ""]
    return "\n".join(lines)


def rows_markdown(results: EvalResults) -> list[str]:
    """With --dataset: one line per (task, row), one score column per agent."""
    agents = results.settings.agents
    scores = {(e.task, e.row, e.agent): e.score for e in results.episodes}
    keys = list(dict.fromkeys((e.task, e.row) for e in results.episodes))
    rows = [
        [task, str(row), *(_fmt(scores.get((task, row, a))) for a in agents)] for task, row in keys
    ]
    return _md_table(["task", "row", *agents], rows)
