"""``--rules-dir`` (and RULES_DIR) for ``novamart eval`` and ``inference.py``: an edited copy
of rules/ is played in this process, its version is reported, and the ground truth the
results reveal follows it (so do the help centre's policy articles). The repository's rules
are back in force afterwards; a broken copy stops the run before any episode."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from novamart.evaluation.results import EvalResults
from novamart.kernel import PolicyKernel, default_kernel
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from tests.inference.loglines import parse
from tests.inference.test_eval_cli import app as eval_app
from tests.inference.test_inference_script import app as inference_app

WINDOW = "order.days_since_purchase <= 30"
SHORT_WINDOW = "order.days_since_purchase <= 3"


@pytest.fixture
def edited_rules(tmp_path: Path) -> Path:
    """rules/ with the standard return window cut from 30 days to 3."""
    rules = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, rules)
    policy = rules / "standard_return.yaml"
    source = policy.read_text()
    assert WINDOW in source
    policy.write_text(source.replace(WINDOW, SHORT_WINDOW))
    return rules


def evaluate(out: Path, *args: str, env: dict[str, str | None] | None = None) -> EvalResults:
    command = ["eval", "--agent", "oracle,heuristic", "--tasks", "easy_refund,kb_grounded_response"]
    result = CliRunner().invoke(
        eval_app, [*command, "--episodes", "2", "--seed", "3", "--out", str(out), *args], env=env
    )
    assert result.exit_code == 0, result.output
    return EvalResults.model_validate_json(out.read_text())


def optima(results: EvalResults) -> set[tuple[str, str]]:
    """The optimum each easy_refund episode's terminal observation revealed."""
    revealed = [
        e.final_observation["ground_truth"]["optimal"]
        for e in results.episodes
        if e.task == "easy_refund"
    ]
    assert len(revealed) == 4  # two agents, two cases
    return {(best["resolution"], best["policy"]) for best in revealed}


def days(results: EvalResults) -> list[int]:
    """How long ago each easy_refund order was placed, as the lookups of the run found."""
    return [
        s.result["days_since_purchase"]
        for e in results.episodes
        if e.task == "easy_refund"
        for s in e.trajectory
        if s.tool == "lookup_order" and s.result and s.result.get("ok")
    ]


def policy_articles(results: EvalResults) -> str:
    """The text of every article the searches of the run returned."""
    return "\n".join(
        found["text"]
        for e in results.episodes
        for s in e.trajectory
        if s.tool == "search_kb" and s.result
        for found in s.result.get("results", [])
    )


def test_an_edited_copy_changes_the_reported_ground_truth(
    edited_rules: Path, tmp_path: Path
) -> None:
    original = default_kernel().version
    repository = evaluate(tmp_path / "a.json")
    edited = evaluate(tmp_path / "b.json", "--rules-dir", str(edited_rules))
    assert repository.settings.rules_version == original and repository.settings.rules_dir is None
    assert edited.settings.rules_dir == str(edited_rules)
    assert edited.settings.rules_version == PolicyKernel(edited_rules).version != original
    assert f"--rules-dir {edited_rules}" in edited.settings.command
    # easy_refund keeps its character (a standard return), drawn from the edited window
    assert optima(repository) == optima(edited) == {("full_refund", "standard_return")}
    assert max(days(edited)) <= 3 and days(edited) != days(repository)
    assert {e.score for e in edited.episodes if e.agent == "oracle"} == {1.0}
    # the help centre renders the same rules
    assert "is at most 30" in policy_articles(repository)
    assert "is at most 3\n" in policy_articles(edited)
    assert "is at most 30" not in policy_articles(edited)
    # from the environment, the same
    by_variable = evaluate(tmp_path / "c.json", env={"RULES_DIR": str(edited_rules)})
    assert by_variable.settings.rules_version == edited.settings.rules_version
    assert optima(by_variable) == optima(edited)
    assert default_kernel().version == original, "the repository's rules are back"


def test_inference_plays_the_edited_rules(edited_rules: Path) -> None:
    """A standard return that grants an exchange instead of a refund: the offline agent
    (which reads check_policy) exchanges the canonical easy_refund item."""
    policy = edited_rules / "standard_return.yaml"
    refund = "  - resolution: full_refund\n    amount: order.price\n"
    assert refund in policy.read_text()
    exchange = "  - resolution: exchange\n    amount: 0\n"
    policy.write_text(policy.read_text().replace(refund, exchange))
    args = ["--offline", "--tasks", "easy_refund"]
    ways: list[tuple[list[str], dict[str, str | None] | None]] = [
        ([], None),
        (["--rules-dir", str(edited_rules)], None),
        ([], {"RULES_DIR": str(edited_rules)}),
    ]
    runs = [CliRunner().invoke(inference_app, [*args, *extra], env=env) for extra, env in ways]
    tools = [[s.tool for s in parse(r.stdout)[0].steps] for r in runs]
    assert "process_refund" in tools[0]
    assert "process_refund" not in tools[1] and "process_exchange" in tools[1]
    assert tools[2] == tools[1]


def broken(tmp_path: Path, edited: Path) -> Path:
    (edited / "standard_return.yaml").write_text("policy: standard_return\nconditions: [\n")
    return edited


def fails(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    return result.stderr


def test_a_broken_copy_or_a_server_stops_the_run_first(edited_rules: Path, tmp_path: Path) -> None:
    rules = broken(tmp_path, edited_rules)
    original = default_kernel().version
    for app, args in (
        (eval_app, ["eval", "--agent", "oracle", "--rules-dir", str(rules)]),
        (inference_app, ["--offline", "--rules-dir", str(rules)]),
    ):
        shown = fails(CliRunner().invoke(app, args))
        assert (
            "standard_return.yaml" in shown and f"problem(s) in the rule files of {rules}" in shown
        )
    assert default_kernel().version == original
    remote = ["eval", "--agent", "heuristic", "--env-url", "http://127.0.0.1:9"]
    shown = fails(CliRunner().invoke(eval_app, [*remote, "--rules-dir", str(rules)]))
    assert "a server at --env-url plays its own" in shown
