"""Exit statuses a CI job can trust: no key stops at once with one line and sends nothing;
a run whose every episode ended early fails; --fail-under gates the mean score.

Both entry points run in this process. The stand-in model watches the network: it is the
endpoint (API_BASE_URL) or, for the default endpoint, the HTTPS proxy every connection goes
through, so an attempt to reach the model would show up in its records (and be refused)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.evaluation.chat import AGENT_VARIABLES, DEFAULT_API_BASE_URL
from novamart.evaluation.llm_customer import CUSTOMER_VARIABLES
from novamart.evaluation.results import EvalResults
from novamart.evaluation.status import BELOW_THRESHOLD, NOTHING_MEASURED
from tests.inference.conftest import Run
from tests.inference.loglines import parse
from tests.inference.standin import StandIn
from tests.inference.test_eval_cli import app as eval_app
from tests.inference.test_inference_script import app as inference_app

UNSET: dict[str, str | None] = dict.fromkeys(
    [
        *AGENT_VARIABLES.keys,
        AGENT_VARIABLES.base_url,
        AGENT_VARIABLES.model,
        *CUSTOMER_VARIABLES.keys,
        CUSTOMER_VARIABLES.base_url,
        "NO_PROXY",
        "no_proxy",
        "ALL_PROXY",
        "all_proxy",
    ]
)
"""No key anywhere, and nothing that would let a connection bypass the proxy."""

Entry = Callable[[list[str], dict[str, str | None]], Run]


def inference(args: list[str], env: dict[str, str | None]) -> Run:
    result = CliRunner().invoke(inference_app, args, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Run("inference", result.exit_code, result.stdout, result.stderr)


def evaluate(args: list[str], env: dict[str, str | None]) -> Run:
    result = CliRunner().invoke(eval_app, ["eval", "--agent", "llm", *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Run("eval", result.exit_code, result.stdout, result.stderr)


def watched(model: StandIn, **extra: str) -> dict[str, str | None]:
    """The environment of a run whose every connection goes through the stand-in."""
    return UNSET | {"HTTPS_PROXY": model.proxy, "HTTP_PROXY": model.proxy, **extra}


@pytest.mark.parametrize("entry", [inference, evaluate], ids=["inference", "eval"])
def test_no_key_stops_at_once_and_sends_nothing(planner_model: StandIn, entry: Entry) -> None:
    args = ["--tasks", "easy_refund", "--episodes", "1", "--retries", "0"]
    for env in (watched(planner_model), watched(planner_model, API_BASE_URL=planner_model.url)):
        run = entry(args, env)
        assert run.returncode == 2
        assert run.stdout == ""
        assert run.stderr.count("\n") == 1 and "no API key for the agent model" in run.stderr
        assert "HF_TOKEN or OPENAI_API_KEY or API_KEY" in run.stderr
    assert planner_model.requests == [] and planner_model.tunnels == []
    # the control: with a key, the same run does try the default endpoint, which the
    # stand-in sees (and refuses, so nothing leaves the machine): the episode ends early
    run = entry(args, watched(planner_model, HF_TOKEN="test-key"))
    host = DEFAULT_API_BASE_URL.split("/")[2]
    assert planner_model.tunnels == [f"{host}:443"]
    assert run.returncode == NOTHING_MEASURED
    assert "ended early" in run.stderr and "APIConnectionError" in run.stderr


def test_the_llm_customer_needs_its_own_key(planner_model: StandIn) -> None:
    env = watched(planner_model, HF_TOKEN="agent-key", API_BASE_URL=planner_model.url)
    run = inference(["--offline", "--customer", "llm", "--tasks", "easy_refund"], env)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip() == f"Error: {CUSTOMER_VARIABLES.missing_key()}"
    run = evaluate(["--customer", "llm", "--tasks", "easy_refund"], env)
    assert run.returncode == 2 and "CUSTOMER_API_KEY" in run.stderr
    assert planner_model.requests == [] and planner_model.tunnels == []


def test_fail_under_gates_each_agent_s_mean(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    base = ["eval", "--tasks", "easy_refund,ticket_triage", "--episodes", "5", "--out", str(out)]
    gate = CliRunner().invoke(eval_app, [*base, "--agent", "oracle,random", "--fail-under", "0.5"])
    assert gate.exit_code == BELOW_THRESHOLD, gate.output
    results = EvalResults.model_validate_json(out.read_text())
    means = {
        agent: statistics.fmean(e.score for e in results.episodes if e.agent == agent)
        for agent in ("oracle", "random")
    }
    assert means["random"] < 0.5 <= means["oracle"]
    assert f"random {means['random']:.3f}" in gate.stderr and "oracle" not in gate.stderr
    passing = CliRunner().invoke(eval_app, [*base, "--agent", "oracle", "--fail-under", "1"])
    assert passing.exit_code == 0, passing.output
    offline = inference(["--offline", "--fail-under", "0.99"], {})
    assert offline.returncode == BELOW_THRESHOLD
    shown = re.search(r"heuristic (\d\.\d{3})", offline.stderr)
    assert shown, offline.stderr
    mean = statistics.fmean(e.score for e in parse(offline.stdout))  # of the 3-decimal scores
    assert float(shown[1]) == pytest.approx(mean, abs=0.001) and mean < 0.99
    assert inference(["--offline", "--fail-under", "0.1"], {}).returncode == 0
