"""A PNG bar chart of mean score per task and agent (matplotlib, Agg: no display needed)."""

from __future__ import annotations

from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from novamart.evaluation.results import EvalResults
from novamart.evaluation.stats import PASS_THRESHOLD


def write_chart(results: EvalResults, path: Path) -> None:
    """Grouped bars: one group per task, one bar per agent, with std as error bars."""
    tasks = [t for t in results.settings.tasks if any(c.task == t for c in results.cells)]
    agents = [a for a in results.settings.agents if any(c.agent == a for c in results.cells)]
    cells = {(c.agent, c.task): c.summary for c in results.cells}
    figure = Figure(
        figsize=(min(12.0, max(6.0, 1.2 + 0.45 * len(agents) * len(tasks))), 4.5), dpi=110
    )
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    width = 0.8 / max(1, len(agents))
    for i, agent in enumerate(agents):
        xs = [t + (i - (len(agents) - 1) / 2) * width for t in range(len(tasks))]
        found = [cells.get((agent, task)) for task in tasks]
        bars = axes.bar(
            xs,
            [s.mean if s else 0.0 for s in found],
            width,
            yerr=[s.std if s else 0.0 for s in found],
            capsize=2,
            error_kw={"elinewidth": 0.6},
            label=agent,
        )
        axes.bar_label(bars, fmt="%.2f", fontsize=6, padding=1)
    axes.axhline(PASS_THRESHOLD, color="grey", linestyle="--", linewidth=0.8)
    axes.set_xticks(range(len(tasks)), tasks)
    axes.set_ylim(0, 1.05)
    axes.set_ylabel("mean score (whiskers: ± 1 std)")
    axes.set_title(f"NovaMart: mean score per task and agent (n = {results.settings.episodes})")
    axes.legend(fontsize="small", ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
