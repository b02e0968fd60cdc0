"""``--dataset FILE`` in ``novamart eval`` and ``inference.py``: every row played once per
ticket task it serves, in-process and over --env-url alike; a malformed file stops the run
up front with exit status 2 and one line naming the file, row and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.evaluation.results import EvalResults
from tests.inference.conftest import SAMPLE, Run, Runs
from tests.inference.loglines import parse
from tests.inference.test_eval_cli import run as run_eval
from tests.inference.test_inference_script import app as inference_app

ROWS = {
    "ticket_triage": list(range(1, 11)),
    "data_extraction": [8, 11],
    "kb_grounded_response": list(range(1, 11)),
    "escalation_safety": list(range(1, 11)),
    "account_recovery": [6, 12],
}
"""The rows of the sample each ticket task plays (rows 11 and 12 carry one family's labels)."""
PLAYED = [task for task, rows in ROWS.items() for _ in rows]


def offline(*args: str) -> Run:
    result = CliRunner().invoke(inference_app, ["--offline", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Run("offline", result.exit_code, result.stdout, result.stderr)


def test_eval_plays_every_row_of_the_sample(tmp_path: Path) -> None:
    out, page = tmp_path / "r.json", tmp_path / "r.md"
    dataset = f"{SAMPLE}.csv"
    result = run_eval(
        "--agent", "oracle,heuristic", "--dataset", dataset, "--out", str(out),
        "--markdown", str(page),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json(out.read_text())
    assert results.settings.tasks == list(ROWS)
    assert (results.settings.dataset, results.settings.seed) == (dataset, None)
    for agent in ("oracle", "heuristic"):
        for task, rows in ROWS.items():
            played = [e for e in results.episodes if (e.agent, e.task) == (agent, task)]
            assert [(e.row, e.seed, e.error) for e in played] == [(r, None, None) for r in rows]
    oracle = [e for e in results.episodes if e.agent == "oracle"]
    assert all(e.score >= 0.95 for e in oracle), [(e.task, e.row, e.score) for e in oracle]
    heuristic = {c.task: c.summary.mean for c in results.cells if c.agent == "heuristic"}
    assert min(heuristic.values()) < 0.95  # the sample is not trivial for a heuristic
    assert "data_extraction plays 2 of 12 rows" in result.stderr
    markdown = page.read_text()
    assert f"--dataset {dataset}" in results.settings.command
    assert results.settings.command in markdown
    assert "--seed" not in results.settings.command
    assert "| task | row | oracle | heuristic |" in markdown
    assert "| data_extraction | 11 | 1.000 |" in markdown


def test_inference_offline_plays_the_rows_in_the_strict_format(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("INFO", logger="novamart")
    run = offline("--dataset", f"{SAMPLE}.jsonl")
    assert run.returncode == 0, run.stderr
    episodes = parse(run.stdout)
    assert [e.task for e in episodes] == PLAYED
    assert all(e.steps and e.steps[-1].done for e in episodes)
    played = [r.getMessage() for r in caplog.records if " plays " in r.getMessage()]
    assert len(played) == len(PLAYED)
    assert "data_extraction of heuristic plays tickets_sample.jsonl row 11, ticket T-011" in played


def test_a_task_list_picks_from_the_rows_that_serve_it() -> None:
    run = offline("--dataset", f"{SAMPLE}.csv", "--tasks", "account_recovery,data_extraction")
    assert [e.task for e in parse(run.stdout)] == ["data_extraction"] * 2 + ["account_recovery"] * 2
    assert "not played (no label of a selected task): row 1 (line 2)" in run.stderr


def test_the_sample_over_env_url_matches_in_process(inference_runs: Runs) -> None:
    remote = inference_runs.dataset_remote
    assert remote.returncode == 0, remote.stderr
    local = offline("--dataset", f"{SAMPLE}.jsonl")
    assert remote.stdout == local.stdout
    assert [e.task for e in parse(remote.stdout)] == PLAYED


CSV_HEADER = "ticket_id,text,category,priority,kb_id,requires_escalation\n"
GOOD_CSV = "T-1,My parcel never came,shipping,high,KB-032,false\n"


@pytest.mark.parametrize(
    ("name", "content", "options", "message"),
    [
        (
            "bad.csv",
            CSV_HEADER + GOOD_CSV + "T-2,Charged twice,billing,asap,KB-002,false\n",
            [],
            "bad.csv: row 2 (line 3), column 'priority': 'asap' is not one of low, medium, "
            "high, urgent",
        ),
        (
            "bad.csv",
            "ticket_id,text,category\nT-1,Charged twice,billing\n",
            [],
            "bad.csv: row 1 (line 2), column 'priority': required for ticket_triage but "
            "missing or empty",
        ),
        (
            "bad.jsonl",
            '{"text": "Locked out", "account": {"email": "a@b.co"}}\n{"text": "oops",\n',
            [],
            "bad.jsonl: row 2: not valid JSON",
        ),
        (
            "bad.csv",
            CSV_HEADER + GOOD_CSV,
            ["--tasks", "data_extraction"],
            "bad.csv: data_extraction cannot be played: no row fills in 'fields'",
        ),
        ("bad.csv", CSV_HEADER + GOOD_CSV, ["--tasks", "easy_refund"], "not order cases"),
        (
            "bad.csv",
            "ticket_id,text,prio\nT-1,Hello,low\n",
            [],
            "bad.csv: row 1 (line 2): unknown column(s) prio",
        ),
        ("bad.csv", CSV_HEADER + GOOD_CSV, ["--seed", "3"], "--seed do not apply"),
    ],
)
def test_a_malformed_file_stops_both_commands_with_one_line(
    tmp_path: Path, name: str, content: str, options: list[str], message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    args = ["--dataset", str(path), *options]
    evaluated = run_eval("--agent", "heuristic", *args)
    for code, stdout, stderr in (
        (evaluated.exit_code, evaluated.stdout, evaluated.stderr),
        (lambda r: (r.returncode, r.stdout, r.stderr))(offline(*args)),
    ):
        assert (code, stdout) == (2, ""), stderr
        lines = stderr.splitlines()
        assert len(lines) == 1 and message in lines[0], stderr
