"""A PNG bar chart of mean score per task and agent (matplotlib, Agg: no display needed).

One panel per task, one horizontal bar per agent: a dozen agents on eight tasks stay
readable, where one group of bars per task would not."""

from __future__ import annotations

import math
from pathlib import Path

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from novamart.evaluation.results import EvalResults, RunSettings
from novamart.evaluation.stats import PASS_THRESHOLD

MAX_COLUMNS = 4
X_LIMIT = 1.2
LABEL_X = 1.18
"""Where the mean's value label ends: past 1.0, where no bar or whisker reaches."""


def _sample(settings: RunSettings) -> str:
    trials = f" × {settings.trials} trials" if settings.trials > 1 else ""
    if settings.dataset is not None:
        return f"the rows of {Path(settings.dataset).name}{trials}"
    return f"n = {settings.episodes} {'cases' if trials else 'episodes'}{trials}"


def write_chart(results: EvalResults, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    chart_figure(results).savefig(path, format="png")


def chart_figure(results: EvalResults) -> Figure:
    """Per task, each agent's mean score as a bar with ± 1 std whiskers, its value in a
    column at the right; the pass line."""
    tasks = [t for t in results.settings.tasks if any(c.task == t for c in results.cells)]
    agents = [a for a in results.settings.agents if any(c.agent == a for c in results.cells)]
    cells = {(c.agent, c.task): c.summary for c in results.cells}
    columns = min(MAX_COLUMNS, max(1, len(tasks)))
    rows = max(1, math.ceil(len(tasks) / columns))
    height = 0.8 + rows * (0.6 + 0.22 * len(agents))
    figure = Figure(figsize=(1.5 + 3.2 * columns, height), dpi=110)
    FigureCanvasAgg(figure)
    axes_grid = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    palette = colormaps["tab20"]
    colours = [palette(i % palette.N) for i in range(len(agents))]
    positions = [len(agents) - 1 - i for i in range(len(agents))]  # the first agent on top
    for index, axes in enumerate(axes_grid.flat):
        if index >= len(tasks):
            axes.set_visible(False)
            continue
        task = tasks[index]
        found = [cells.get((agent, task)) for agent in agents]
        means = [s.mean if s else 0.0 for s in found]
        stds = [s.std if s else 0.0 for s in found]
        axes.barh(
            positions,
            means,
            # whiskers of ± 1 std, cut at the score's range [0, 1]
            xerr=[
                [min(sd, m) for m, sd in zip(means, stds, strict=True)],
                [min(sd, 1.0 - m) for m, sd in zip(means, stds, strict=True)],
            ],
            color=colours,
            capsize=2,
            error_kw={"elinewidth": 0.6},
        )
        for position, mean in zip(positions, means, strict=True):
            # in a column right of the score range, clear of every whisker
            axes.text(LABEL_X, position, f"{mean:.2f}", fontsize=6, ha="right", va="center")
        axes.axvline(PASS_THRESHOLD, color="grey", linestyle="--", linewidth=0.8)
        axes.set_title(task, fontsize=9)
        axes.set_xlim(0, X_LIMIT)
        axes.set_xticks([i / 5 for i in range(6)])
        axes.set_yticks(positions, agents, fontsize=7)
        axes.tick_params(axis="x", labelsize=7)
    for axes in axes_grid[-1]:
        axes.set_xlabel("mean score (± 1 std, within 0..1)", fontsize=7)
    figure.suptitle(
        f"NovaMart: mean score per task and agent ({_sample(results.settings)}; "
        f"dashed: pass at {PASS_THRESHOLD})",
        fontsize=10,
    )
    figure.tight_layout()
    return figure
