"""The markdown report of a run: what was run and how to reproduce it, the overview of mean
scores, per task the scores with pass^k and the failures grouped by cause, and transcripts
(each in a collapsed <details> block, which GitHub renders)."""

from __future__ import annotations

from novamart.evaluation.report import (
    Table,
    cells_of,
    explanation,
    failure_table,
    overview_table,
    rows_table,
    score_table,
    tasks_of,
)
from novamart.evaluation.results import EvalResults
from novamart.evaluation.transcripts import TranscriptView, chosen, view

VALUE_LIMIT = 400
"""Characters of a tool result or argument a markdown transcript shows (the JSON has all)."""


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def table_lines(table: Table) -> list[str]:
    aligns = ["---:" if number else ":---" for number in table.numeric()]
    return [
        "| " + " | ".join(table.header) + " |",
        "| " + " | ".join(aligns) + " |",
        *("| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows),
    ]


def _code(text: str) -> str:
    """Inline code that survives backticks in ``text``."""
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"


def transcript_lines(t: TranscriptView) -> list[str]:
    lines = [
        f'<details id="{t.anchor}"><summary>{t.title}: {t.outcome}</summary>',
        "",
        f"> {_cell(t.opening)}" if t.opening else "",
        "",
    ]
    for step in t.steps:
        parts = f" ({step.parts})" if step.parts else ""
        lines.append(f"{step.number}. {_code(step.call)} reward {step.reward}{parts}")
        lines.append(f"   - result: {_code(step.result)}")
        if step.reply is not None:
            lines.append(f"   - customer: {_cell(step.reply)}")
    for heading, items in (("end", t.final), ("read in-process", t.hidden)):
        if items:
            lines += ["", f"**{heading}**: " + "; ".join(f"{k} {_code(v)}" for k, v in items)]
    return [*lines, "", "</details>", ""]


def markdown(results: EvalResults, chart: str | None = None, transcripts: int | None = None) -> str:
    """The page; ``transcripts`` caps how many episodes of each (agent, task) it shows in
    full (failures first; None: all, 0: none)."""
    s = results.settings
    lines = [
        f"# {s.title()}",
        "",
        f"{explanation(results)} Produced from the repository root, with the project "
        "installed (`novamart` is `.venv/bin/novamart`), by:",
        "",
        "```bash",
        s.command,
        "```",
        "",
        "## Mean score (± std)",
        "",
        *table_lines(overview_table(results)),
        "",
    ]
    if chart:
        lines += [f"![mean score per task and agent]({chart})", ""]
    for task in tasks_of(results):
        lines += [f"## {task}", "", *table_lines(score_table(results, task)), ""]
        failures = failure_table(results, task)
        if failures.rows:
            lines += [f"### {task}: failures by cause", "", *table_lines(failures), ""]
    if s.dataset is not None:
        lines += [f"## Score per row of {s.dataset}", "", *table_lines(rows_table(results)), ""]
    if transcripts != 0:
        lines += ["## Transcripts", ""]
        for task in tasks_of(results):
            for cell in cells_of(results, task):
                for i in chosen(results, cell, transcripts):
                    lines += transcript_lines(view(i, results.episodes[i], s.trials, VALUE_LIMIT))
    return "\n".join(lines)
