"""``--trials K``: every case is played K times, and pass^k is computed over the trials of
each case (tau-bench), not across different cases; the across-cases chance is reported
under its own name. inference.py's lines keep their format whatever the trials."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from typer.testing import CliRunner

from novamart.evaluation.plays import TRIAL_SEED_STRIDE
from novamart.evaluation.results import EvalResults
from novamart.evaluation.stats import passed
from tests.inference.loglines import parse
from tests.inference.standin import StandIn
from tests.inference.test_eval_cli import run
from tests.inference.test_inference_script import app as inference_app

TRIALS, SEEDS = 3, [5, 6, 7, 8]


def test_each_case_is_played_k_times_and_pass_hat_k_is_over_its_trials(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = run(
        "--agent", "oracle,random", "--tasks", "easy_refund,ticket_triage",
        "--episodes", str(len(SEEDS)), "--seed", str(SEEDS[0]), "--trials", str(TRIALS),
        "--out", str(out), env={"COLUMNS": "200"},  # room for every column of the table
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json(out.read_text())
    assert results.settings.trials == TRIALS and "--trials 3" in results.settings.command
    assert "each played 3 times" in results.settings.scope()
    varied = 0
    for cell in results.cells:
        played = [e for e in results.episodes if (e.agent, e.task) == (cell.agent, cell.task)]
        assert [(e.seed, e.trial) for e in played] == [
            (s, t) for s in SEEDS for t in range(1, TRIALS + 1)
        ]
        wins = []
        for seed in SEEDS:
            trials = [e for e in played if e.seed == seed]
            # the same case every trial: the same customer, ticket and truth
            assert len({e.final_observation["issue_description"] for e in trials}) == 1
            assert len({str(e.final_observation["ground_truth"]) for e in trials}) == 1
            varied += len({str([s.arguments for s in e.trajectory]) for e in trials}) > 1
            wins.append(sum(passed(e.score) for e in trials))
        summary = cell.summary
        assert (summary.cases, summary.trials, summary.n) == (len(SEEDS), TRIALS, len(played))
        for k in range(1, TRIALS + 1):
            expected = statistics.fmean(math.comb(c, k) / math.comb(TRIALS, k) for c in wins)
            assert summary.pass_hat[k] == expected
        if cell.agent == "oracle":
            assert summary.pass_hat == {1: 1.0, 2: 1.0, 3: 1.0}
    assert varied, "a random agent draws anew on each trial of a case"
    assert "pass^3" in result.stdout and "2 cases" in result.stdout


def test_inference_repeats_cases_with_unchanged_lines() -> None:
    args = ["--offline", "--tasks", "easy_refund,data_extraction", "--trials", "2"]
    result = CliRunner().invoke(inference_app, args)
    assert result.exit_code == 0, result.output
    episodes = parse(result.stdout)  # every line in the pinned format
    assert [e.task for e in episodes] == ["easy_refund"] * 2 + ["data_extraction"] * 2
    lines = result.stdout.splitlines()
    first = lines[: lines.index(next(x for x in lines if x.startswith("[END]"))) + 1]
    assert lines[len(first) : 2 * len(first)] == first  # a deterministic agent repeats itself


def test_each_trial_gives_a_model_its_own_seed(planner_model: StandIn) -> None:
    result = run(
        "--agent", "llm", "--tasks", "ticket_triage", "--episodes", "2", "--seed", "4",
        "--trials", "2", "--api-base-url", planner_model.url, env={"HF_TOKEN": "test-key"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    seeds = [r["seed"] for r in planner_model.requests]
    stride = TRIAL_SEED_STRIDE
    assert sorted(set(seeds)) == [4, 5, 4 + stride, 5 + stride]
