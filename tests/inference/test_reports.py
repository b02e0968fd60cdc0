"""What a report's title and chart say: the run that was made, and values that stay
readable whatever the spread."""

from __future__ import annotations

import numpy as np

from novamart.evaluation.chart import LABEL_X, chart_figure
from novamart.evaluation.results import CellResult, EvalResults, RunSettings
from novamart.evaluation.stats import summarise


def results(settings: RunSettings, means: dict[str, list[float]]) -> EvalResults:
    cells = [
        CellResult(agent=agent, task=task, summary=summarise([[s] for s in scores]))
        for agent, scores in means.items()
        for task in settings.tasks
    ]
    return EvalResults(settings=settings, cells=cells, episodes=[])


def test_titles_say_what_was_run() -> None:
    baseline = RunSettings(
        agents=[f"agent{i}" for i in range(13)], tasks=["t"] * 8, episodes=100, seed=0
    )
    assert baseline.title() == "NovaMart evaluation: 13 agents on 8 tasks (100 seeds from 0)"
    model = RunSettings(
        agents=["llm"], tasks=["easy_refund"], episodes=5, seed=3, trials=4, model="qwen-7b",
        customer="llm", customer_model="llama-8b",
    )  # fmt: skip
    assert model.title() == (
        "NovaMart evaluation: qwen-7b on easy_refund (5 seeds from 3 × 4 trials, "
        "LLM customer llama-8b)"
    )
    rows = RunSettings(
        agents=["oracle", "heuristic"], tasks=["ticket_triage"], episodes=1, seed=None,
        dataset="data/tickets.csv",
    )  # fmt: skip
    assert rows.title() == "NovaMart evaluation: oracle, heuristic on ticket_triage (tickets.csv)"


def test_chart_values_sit_clear_of_the_whiskers() -> None:
    """A wide spread puts a whisker's end near 1: the value is written past it, in a column
    of its own, not at the whisker's end."""
    settings = RunSettings(agents=["steady", "wild"], tasks=["a", "b"], episodes=4, seed=0)
    chart = chart_figure(results(settings, {"steady": [0.5] * 4, "wild": [0.0, 1.0, 0.0, 1.0]}))
    panels = [axes for axes in chart.axes if axes.get_visible()]
    assert len(panels) == 2
    for axes in panels:
        labels = axes.texts
        assert [t.get_text() for t in labels] == ["0.50", "0.50"]
        assert {t.get_position()[0] for t in labels} == {LABEL_X}
        drawn = [float(x) for line in axes.lines for x in np.asarray(line.get_xdata())]
        drawn += [float(x) for c in axes.collections for seg in c.get_segments() for x in seg[:, 0]]
        assert 1.0 in drawn  # the wild agent's whisker reaches the top of the range
        assert max(drawn) <= 1.0 < LABEL_X
