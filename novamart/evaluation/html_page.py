"""The HTML report of a run: one self-contained page (no scripts, no external files but
the chart) to browse in any browser. The tables of the markdown page, failures linked to the
episodes they group, and per task and agent each episode's transcript, collapsed."""

from __future__ import annotations

from html import escape

from novamart.evaluation import report
from novamart.evaluation.report import Table
from novamart.evaluation.results import EvalResults
from novamart.evaluation.transcripts import TranscriptView, anchor, chosen, view

VALUE_LIMIT = 2000
"""Characters of a tool result or argument an HTML transcript shows (the JSON has all)."""
LINKS_SHOWN = 12
STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 75em; padding: 0 1em }
table { border-collapse: collapse; margin: .5em 0 1em }
th, td { border: 1px solid #ccc; padding: .2em .5em; text-align: left; vertical-align: top }
.num { text-align: right }
code, pre { font: 12px/1.4 ui-monospace, monospace; white-space: pre-wrap; word-break: break-word }
details { border: 1px solid #ddd; border-radius: 4px; margin: .3em 0; padding: .2em .6em }
details[open] { background: #fafafa }
summary { cursor: pointer }
.opening { border-left: 3px solid #88a; margin: .5em 0; padding-left: .6em }
.error { color: #a00 }
.reply { color: #335 }
dl { display: grid; grid-template-columns: max-content auto; gap: .1em 1em }
dt { font-weight: 600 }
"""


def _table(table: Table, extra: list[str] | None = None) -> str:
    """``extra``: one more cell of ready HTML per row (links)."""
    numeric = table.numeric()
    head = "".join(
        f'<th class="{"num" if number else "text"}">{escape(h)}</th>'
        for h, number in zip(table.header, numeric, strict=True)
    )
    head += "<th></th>" if extra else ""
    rows = []
    for i, row in enumerate(table.rows):
        cells = "".join(
            f'<td class="{"num" if number else "text"}">{escape(c)}</td>'
            for c, number in zip(row, numeric, strict=True)
        )
        if extra:
            cells += f'<td class="text">{extra[i]}</td>'
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _links(results: EvalResults, task: str) -> list[str]:
    """Per failure group (in failure_table's order), links to its first episodes."""
    links = []
    for cell in report.cells_of(results, task):
        for group in cell.failures:
            shown = [f'<a href="#{anchor(i)}">{i}</a>' for i in group.episodes[:LINKS_SHOWN]]
            more = len(group.episodes) - LINKS_SHOWN
            links.append(" ".join(shown) + (f" … +{more}" if more > 0 else ""))
    return links


def _items(items: list[tuple[str, str]]) -> str:
    rows = "".join(f"<dt>{escape(k)}</dt><dd><code>{escape(v)}</code></dd>" for k, v in items)
    return f"<dl>{rows}</dl>"


def transcript(t: TranscriptView) -> str:
    parts = [
        f'<details id="{t.anchor}"><summary>{escape(t.title)}: {escape(t.outcome)}</summary>',
        f'<p class="opening">{escape(t.opening)}</p>' if t.opening else "",
        "<ol>",
    ]
    for step in t.steps:
        extra = f" ({escape(step.parts)})" if step.parts else ""
        parts.append(
            f"<li><code>{escape(step.call)}</code> reward {escape(step.reward)}{extra}"
            f"<br>result: <code>{escape(step.result)}</code>"
        )
        if step.error:
            parts.append(f'<br><span class="error">{escape(step.error)}</span>')
        if step.reply is not None:
            parts.append(f'<br><span class="reply">customer: {escape(step.reply)}</span>')
        parts.append("</li>")
    parts.append("</ol>")
    if t.hidden:
        parts += ["<h4>read in-process</h4>", _items(t.hidden)]
    if t.final:
        parts += ["<h4>end</h4>", _items(t.final)]
    return "\n".join([*parts, "</details>"])


def html(results: EvalResults, chart: str | None = None, transcripts: int | None = None) -> str:
    """The page; ``transcripts`` caps the episodes of each (agent, task) shown in full
    (failures first; None: all, 0: none)."""
    s = results.settings
    tasks = report.tasks_of(results)
    nav = " · ".join(f'<a href="#task-{t}">{escape(t)}</a>' for t in tasks)
    body = [
        f"<h1>{escape(s.title())}</h1>",
        f"<p>{escape(report.explanation(results))}</p>",
        f"<pre><code>{escape(s.command)}</code></pre>",
        f"<nav>{nav}</nav>",
        "<h2>Mean score (± std)</h2>",
        _table(report.overview_table(results)),
    ]
    if chart:
        body.append(f'<img src="{escape(chart)}" alt="mean score per task and agent">')
    if s.dataset is not None:
        body += [
            f"<h2>Score per row of {escape(s.dataset)}</h2>",
            _table(report.rows_table(results)),
        ]
    for task in tasks:
        body += [
            f'<h2 id="task-{task}">{escape(task)}</h2>',
            _table(report.score_table(results, task)),
        ]
        failures = report.failure_table(results, task)
        if failures.rows:
            body += ["<h3>Failures by cause</h3>", _table(failures, _links(results, task))]
        if transcripts == 0:
            continue
        for cell in report.cells_of(results, task):
            shown = chosen(results, cell, transcripts)
            body.append(f"<h3>{escape(cell.agent)} on {escape(task)}: {len(shown)} episodes</h3>")
            body += [transcript(view(i, results.episodes[i], s.trials, VALUE_LIMIT)) for i in shown]
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(s.title())}</title><style>{STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
