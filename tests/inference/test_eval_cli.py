"""``novamart eval`` through its command function: tables, JSON, chart and markdown."""

from __future__ import annotations

import shlex
import statistics
from pathlib import Path

import typer
from typer.testing import CliRunner, Result

from novamart.evaluation.cli import eval_command
from novamart.evaluation.results import EvalResults
from tests.inference.standin import StandIn

app = typer.Typer()
app.command("eval")(eval_command)
app.command("noop")(lambda: None)  # two commands, so "eval" is a subcommand as in novamart


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(app, ["eval", *args], env=env)


def test_reference_agents_over_seeds(tmp_path: Path) -> None:
    out, chart, page = tmp_path / "r.json", tmp_path / "c.png", tmp_path / "docs" / "r.md"
    result = run(
        "--agent", "oracle,random", "--agent", "do_nothing",
        "--tasks", "account_recovery,ticket_triage", "--tasks", "easy_refund",
        "--episodes", "4", "--seed", "3",
        "--out", str(out), "--chart", str(chart), "--markdown", str(page),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json(out.read_text())
    # easy -> medium -> hard, ties in registry order (order cases before tickets)
    tasks = ["easy_refund", "ticket_triage", "account_recovery"]
    assert results.settings.tasks == tasks
    assert [(c.agent, c.task, c.summary.n) for c in results.cells] == [
        (agent, task, 4) for agent in ("oracle", "random", "do_nothing") for task in tasks
    ]
    for cell in results.cells:
        played = [e for e in results.episodes if (e.agent, e.task) == (cell.agent, cell.task)]
        assert [e.seed for e in played] == [3, 4, 5, 6]
        assert cell.summary.mean == statistics.fmean(e.score for e in played)
    assert {c.task: c.summary.mean for c in results.cells if c.agent == "oracle"} == {
        task: 1.0 for task in tasks
    }
    assert "4 cases" in result.stdout and "account_recovery" in result.stdout
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    markdown = page.read_text()
    assert results.settings.command in markdown
    assert results.settings.command.startswith("novamart eval --agent oracle,random,do_nothing")
    assert "| do_nothing | 4 |" in markdown and "](../c.png)" in markdown


def test_a_model_through_the_same_options(planner_model: StandIn, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = run(
        "--agent", "llm", "--tasks", "kb_grounded_response,defect_resolution", "--episodes", "1",
        "--model", "eval-model", "--api-base-url", planner_model.url, "--out", str(out),
        env={"HF_TOKEN": "test-key"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json(out.read_text())
    assert results.settings.model == "eval-model"
    assert [(e.task, e.error) for e in results.episodes] == [
        ("defect_resolution", None),
        ("kb_grounded_response", None),
    ]
    assert {r["model"] for r in planner_model.requests} == {"eval-model"}


def test_bad_agents_are_refused() -> None:
    unknown = run("--agent", "oracle,wizard")
    assert unknown.exit_code == 2 and "unknown agent 'wizard'" in unknown.output
    remote = run("--agent", "oracle", "--env-url", "http://127.0.0.1:9")
    assert remote.exit_code == 2 and "only in-process" in remote.output


def test_modes_and_policy_variants_are_columns_of_their_own(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = run(
        "--agent", "oracle,always_refund", "--tasks", "open_case,ticket_triage",
        "--episodes", "3", "--mode", "guided,closed_book", "--policy-variant", "5",
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json(out.read_text())
    assert results.settings.tasks == [
        "ticket_triage",
        "open_case",
        "open_case/variants",
        "open_case/closed_book",
        "open_case/closed_book/variants",
    ]
    assert results.settings.command.endswith(
        "--mode guided,closed_book --policy-variant 5 --out " + str(out)
    )
    again = shlex.split(results.settings.command)[2:]  # the command reproduces the run
    assert (
        run(*[a if a != str(out) else str(tmp_path / "again.json") for a in again]).exit_code == 0
    )
    oracle = {c.task: c.summary.mean for c in results.cells if c.agent == "oracle"}
    assert oracle == dict.fromkeys(results.settings.tasks, 1.0)
    assert len(results.episodes) == 2 * 5 * 3


def test_a_retail_task_is_played_under_policy_variants(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = run(
        "--agent", "oracle,heuristic", "--tasks", "retail_return", "--episodes", "3",
        "--mode", "guided,closed_book", "--policy-variant", "4", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json(out.read_text())
    columns = [
        "retail_return",
        "retail_return/variants",
        "retail_return/closed_book",
        "retail_return/closed_book/variants",
    ]
    assert results.settings.tasks == columns and results.settings.policy_variant == 4
    oracle = {c.task: c.summary.mean for c in results.cells if c.agent == "oracle"}
    assert oracle == dict.fromkeys(columns, 1.0)
    assert len(results.episodes) == 2 * 4 * 3


def test_an_unknown_mode_is_a_usage_error() -> None:
    result = run("--agent", "oracle", "--tasks", "easy_refund", "--mode", "open_book")
    assert result.exit_code == 2 and "unknown mode open_book" in result.output
