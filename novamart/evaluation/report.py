"""Evaluation results as tables: the same headers and rows for the terminal (rich), the
markdown page and the HTML page.

Per task, one row per agent: n, mean, std, pass^1..K over the K trials of each case, and
"k cases", the chance that k = 2..4 different cases all pass; the failures of each cell
grouped by cause; an overview of mean scores with one column per task; with a dataset, the
score of every row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.table import Table as RichTable

from novamart.evaluation.results import CellResult, EvalResults
from novamart.evaluation.stats import CASE_KS, PASS_THRESHOLD

NOTES_SHOWN = 3


NUMBER = re.compile(r"[-+]?\d+(\.\d+)?( ± \d+(\.\d+)?| of \d+)?|–")


@dataclass(frozen=True)
class Table:
    header: list[str]
    rows: list[list[str]]

    def numeric(self) -> list[bool]:
        """Per column: whether every cell is a number (right-aligned), else text (left)."""
        return [
            i > 0 and all(NUMBER.fullmatch(row[i]) for row in self.rows)
            for i in range(len(self.header))
        ]


def fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def tasks_of(results: EvalResults) -> list[str]:
    return [t for t in results.settings.tasks if any(c.task == t for c in results.cells)]


def cells_of(results: EvalResults, task: str) -> list[CellResult]:
    return [c for c in results.cells if c.task == task]


def _case_ks(results: EvalResults) -> list[int]:
    """The 'k cases' columns (all_of_k_cases): k >= 2, since k = 1 is the pass rate."""
    return [k for k in CASE_KS if k > 1]


def score_table(results: EvalResults, task: str) -> Table:
    trials = results.settings.trials
    header = [
        "agent",
        "n",
        "mean",
        "std",
        *(f"pass^{k}" for k in range(1, trials + 1)),
        *(f"{k} cases" for k in _case_ks(results)),
    ]
    rows = []
    for cell in cells_of(results, task):
        s = cell.summary
        rows.append(
            [
                cell.agent,
                str(s.n),
                fmt(s.mean),
                fmt(s.std),
                *(fmt(s.pass_hat.get(k)) for k in range(1, trials + 1)),
                *(fmt(s.all_of_k_cases.get(k)) for k in _case_ks(results)),
            ]
        )
    return Table(header, rows)


def failure_table(results: EvalResults, task: str) -> Table:
    """Per agent, its failures by cause: how many, how far the term fell short on average,
    and the most frequent grader notes or failed policy conditions among them."""
    rows = []
    for cell in cells_of(results, task):
        for group in cell.failures:
            notes = [f"{note} ({count})" for note, count in group.notes.items()][:NOTES_SHOWN]
            rows.append(
                [
                    cell.agent,
                    f"{len(group.episodes)} of {cell.summary.n}",
                    group.cause,
                    fmt(group.mean_cost),
                    "; ".join(notes) or "–",
                ]
            )
    return Table(["agent", "failed", "cost the most", "mean shortfall", "notes"], rows)


def overview_table(results: EvalResults) -> Table:
    """Mean ± std per agent (rows) and task (columns)."""
    tasks = tasks_of(results)
    cells = {(c.agent, c.task): c.summary for c in results.cells}
    rows = [
        [agent, *(f"{cells[agent, t].mean:.3f} ± {cells[agent, t].std:.3f}" for t in tasks)]
        for agent in results.settings.agents
        if all((agent, t) in cells for t in tasks)
    ]
    return Table(["agent", *tasks], rows)


def rows_table(results: EvalResults) -> Table:
    """With --dataset: one line per (task, row), one score column per agent (the mean over
    the trials)."""
    agents = results.settings.agents
    scores: dict[tuple[str, int | None, str], list[float]] = {}
    for e in results.episodes:
        scores.setdefault((e.task, e.row, e.agent), []).append(e.score)
    keys = list(dict.fromkeys((e.task, e.row) for e in results.episodes))

    def mean(key: tuple[str, int | None, str]) -> float | None:
        found = scores.get(key)
        return sum(found) / len(found) if found else None

    rows = [[task, str(row), *(fmt(mean((task, row, a))) for a in agents)] for task, row in keys]
    return Table(["task", "row", *agents], rows)


def task_tables(results: EvalResults) -> list[RichTable]:
    """One rich table per task, for the terminal."""
    tables = []
    for task in tasks_of(results):
        table = score_table(results, task)
        shown = RichTable(title=f"{task} (pass: score >= {PASS_THRESHOLD})", title_justify="left")
        shown.add_column(table.header[0], no_wrap=True)
        for column in table.header[1:]:
            shown.add_column(column, justify="right")
        for row in table.rows:
            shown.add_row(*row)
        tables.append(shown)
    return tables


def explanation(results: EvalResults) -> str:
    """What the numbers mean and what was played, in plain sentences (no markup)."""
    s = results.settings
    rules = (
        "the server's rules"
        if s.rules_version is None
        else f"rules version {s.rules_version} ({s.rules_dir or 'the repository rules/'})"
    )
    customer = (
        "the deterministic customer simulator"
        if s.customer == "simulated"
        else f"an LLM customer ({s.customer_model})"
    )
    return (
        f"{s.scope()}; an episode passes at score >= {PASS_THRESHOLD}. pass^k is the chance "
        "that k trials of the same case all pass (tau-bench: the mean over cases of "
        "C(c,k)/C(K,k) from c passes in K trials; --trials K plays each case K times); "
        "'k cases' is the chance that k different cases all pass (C(c,k)/C(n,k) over "
        "the n cases). std is the sample standard deviation. A failed episode is filed under "
        "the grade term that fell furthest below its best (or under why it ended early): "
        "the shortfall is in points of the grade for order cases, on the component's own 0..1 "
        "scale for tickets; notes are the grader's and the failed policy conditions. "
        f"Played with {rules} and {customer}."
    )
