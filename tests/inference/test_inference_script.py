"""inference.py end to end: subprocess runs against the stand-in model and a real server
(see conftest.py), and its entry point called here for the offline and faulty-model runs."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import typer
from openenv.core.env_server.mcp_types import CallToolAction, Tool
from typer.testing import CliRunner

import inference
from novamart.evaluation.sessions import InProcessSession
from novamart.evaluation.status import NOTHING_MEASURED
from novamart.scenarios import TASKS
from novamart.server.launch import free_port
from novamart.tickets.family import FAMILIES
from tests.inference.conftest import Run, Runs
from tests.inference.loglines import Episode, parse
from tests.inference.scripts import UNKNOWN_TOOL
from tests.inference.standin import StandIn

IN_ORDER = [
    "easy_refund",
    "ticket_triage",
    "defect_resolution",
    "data_extraction",
    "kb_grounded_response",
    "retail_return",
    "retail_exchange",
    "retail_pending",
    "loyalty_negotiation",
    "open_case",
    "escalation_safety",
    "account_recovery",
    "retail_compound",
    "retail_refusal",
    "retail_late_return",
]
"""Every task, easy -> medium -> hard, ties in registry order (order cases, ticket families,
retail cases)."""
FAULT_OPTIONS = ["--timeout", "1", "--retries", "1", "--backoff", "0.01"]

app = typer.Typer()
app.command()(inference.main)


def invoke(model: StandIn, name: str, *args: str) -> Run:
    """inference.py's entry point in this process, its stdout and stderr captured."""
    env = {"API_BASE_URL": model.url, "MODEL_NAME": name, "HF_TOKEN": "test-key"}
    result = CliRunner().invoke(app, list(args), env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return Run(name, result.exit_code, result.stdout, result.stderr)


def episodes_of(run: Run, status: int = 0) -> list[Episode]:
    assert run.returncode == status, run.stderr
    episodes = parse(run.stdout)
    assert [e.task for e in episodes] == IN_ORDER
    return episodes


def requests_of(runs: Runs, model: str) -> list[dict[str, Any]]:
    return [r for r in runs.planner.requests if r["model"] == model]


def replay(episode: Episode) -> tuple[list[str], float | None]:
    """The same actions in a fresh in-process environment: rewards and final score."""
    session = InProcessSession()
    session.reset(episode.task, None)
    rewards, final = [], None
    for step in episode.steps:
        observation = session.step(CallToolAction(tool_name=step.tool, arguments=step.arguments))
        rewards.append(f"{round(observation.reward or 0.0, 2) + 0.0:.2f}")
        final = observation.final_score
    return rewards, final


def test_offline_plays_every_task_without_calling_a_model(planner_model: StandIn) -> None:
    episodes = episodes_of(invoke(planner_model, "offline-probe", "--offline"))
    assert {e.model for e in episodes} == {"heuristic"}
    assert all(e.steps and e.steps[-1].done for e in episodes)
    assert planner_model.requests == []


def test_modes_and_policy_variants_play_as_eval_schedules_them(planner_model: StandIn) -> None:
    """--mode and --policy-variant: each order case in both modes and once more under its
    variant (closed book offers no check_policy); a ticket once, as written."""
    tasks = "easy_refund,ticket_triage,retail_return"
    args = ["--offline", "--tasks", tasks, "--episodes", "2", "--seed", "0"]
    run = invoke(planner_model, "offline-modes", *args, "--mode", "guided,closed_book",
                 "--policy-variant", "4")  # fmt: skip
    assert run.returncode == 0, run.stderr
    episodes = parse(run.stdout)
    assert [e.task for e in episodes] == (
        ["easy_refund"] * 8 + ["ticket_triage"] * 2 + ["retail_return"] * 8
    )
    assert all(e.steps and e.steps[-1].done for e in episodes)
    asked = [any(s.tool == "check_policy" for s in e.steps) for e in episodes[:8]]
    assert asked == [True] * 4 + [False] * 4, asked


def test_model_plays_every_task_in_process(inference_runs: Runs) -> None:
    episodes = episodes_of(inference_runs.in_process)
    assert {e.model for e in episodes} == {"standin-local"}
    for episode in episodes:
        errors = [s.error or "" for s in episode.steps]
        # the unknown tool and the malformed arguments reached the env and were scored there
        assert any(e.startswith("unknown_tool") and UNKNOWN_TOOL in e for e in errors)
        assert any(e.startswith("invalid_arguments") for e in errors)
        if episode.task in FAMILIES:
            # the ticket was closed by its own tool, and the sensible run earned most of it
            last = episode.steps[-1]
            assert (last.tool, last.error) == (FAMILIES[episode.task].closing_tool, None)
            assert last.done and episode.score >= 0.5
        else:
            # the plain-text reply went to the customer
            assert "respond_to_customer" in [s.tool for s in episode.steps]
        rewards, final = replay(episode)
        assert rewards == episode.rewards
        assert final is not None and f"{final:.3f}" == f"{episode.score:.3f}"


def task_of(request: dict[str, Any]) -> str:
    task = re.search(r"New case \((\w+)\)", request["messages"][1]["content"])
    assert task, request["messages"][1]
    return task[1]


def test_the_model_reads_what_each_task_needs(inference_runs: Runs) -> None:
    """The brief shows the case from the observation: a ticket's instructions, its text, the
    requested fields, the account on file; after a search the articles found come back."""
    requests = {task_of(r): r for r in requests_of(inference_runs, "standin-local")}
    session = InProcessSession()
    for task in IN_ORDER:
        observation = session.reset(task, None)
        brief = requests[task]["messages"][1]["content"]
        shown = [
            observation.instructions,
            *observation.issue_description.splitlines(),
            observation.ticket_subject,
            *observation.requested_fields,
            *observation.account_on_file.values(),
            observation.customer_id,
            observation.order_id,
        ]
        assert all(part.strip() in brief for part in shown), (task, brief)
    assert "requested_fields" in requests["data_extraction"]["messages"][1]["content"]
    assert "account_on_file" in requests["account_recovery"]["messages"][1]["content"]
    reports = {
        task: [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]
        for task, request in requests.items()
    }
    for task in ("kb_grounded_response", "escalation_safety", "account_recovery"):
        search = next(r for r in reports[task] if "results" in (r["result"] or {}))
        found = [a["id"] for a in search["result"]["results"]]
        assert found and [a["article_id"] for a in search["updates"]["kb_results"]] == found
    # an order case's facts arrive the same way: the lookup fills days_since_purchase
    lookup, loyalty = reports["easy_refund"][:2]
    assert lookup["updates"] == {"days_since_purchase": lookup["result"]["days_since_purchase"]}
    assert loyalty["updates"] == {"customer_tier": loyalty["result"]["tier"]}


def env_tools(task: str) -> dict[str, Tool]:
    session = InProcessSession()
    session.reset(task, None)
    return {tool.name: tool for tool in session.tools()}


def test_the_model_gets_the_environments_tools_and_its_results(inference_runs: Runs) -> None:
    requests = requests_of(inference_runs, "standin-local")
    tools = {task: env_tools(task) for task in IN_ORDER}
    seen = set()
    # canonical cases, one trial: the agent's seed is 0
    assert requests and all(r["temperature"] == 0 and r["seed"] == 0 for r in requests)
    for request in requests:
        task = task_of(request)
        seen.add(task)
        specs = {spec["function"]["name"]: spec["function"] for spec in request["tools"]}
        expected = tools[task]
        assert set(specs) == set(expected) == set(TASKS[task].tools)
        assert all(specs[n]["parameters"] == expected[n].input_schema for n in specs)
        assert all(specs[n]["description"] == expected[n].description for n in specs)
        # every tool call the model made was answered, by id, before the next model call
        asked, answered = set(), set()
        for message in request["messages"]:
            asked |= {c["id"] for c in message.get("tool_calls") or []}
            if message["role"] == "tool":
                answered.add(message["tool_call_id"])
        assert asked == answered
    assert seen == set(IN_ORDER)


def test_model_plays_every_task_over_env_url(inference_runs: Runs) -> None:
    remote = episodes_of(inference_runs.remote)
    local = episodes_of(inference_runs.in_process)
    assert {e.model for e in remote} == {"standin-remote"}
    # the same deterministic model on the same canonical cases: the same lines, step by step
    assert [(e.steps, e.rewards, e.score, e.success) for e in remote] == [
        (e.steps, e.rewards, e.score, e.success) for e in local
    ]


def test_errors_garbage_and_slow_replies_end_episodes_not_the_run(
    faulty_model: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    run = invoke(faulty_model, "standin-faulty", *FAULT_OPTIONS)
    episodes = episodes_of(run, NOTHING_MEASURED)  # every episode ended early: a CI notices
    assert run.stderr.startswith(f"Error: all {len(IN_ORDER)} episodes of standin-faulty ended")
    assert [len(e.steps) for e in episodes] == [0, 1] + [0] * (len(IN_ORDER) - 2)
    assert not any(e.success for e in episodes)
    ended = [r.getMessage() for r in caplog.records if "ended early" in r.getMessage()]
    assert len(ended) == len(IN_ORDER) and all("ModelUnavailable" in m for m in ended)
    retried = " ".join(r.getMessage() for r in caplog.records if "retrying" in r.getMessage())
    for fault in ("InternalServerError", "APITimeoutError", "MalformedReply"):
        assert fault in retried


def test_an_unknown_task_is_refused_before_any_episode(planner_model: StandIn) -> None:
    run = invoke(planner_model, "standin-refused", "--offline", "--tasks", "easy_refund,nope")
    assert run.returncode == 2
    assert run.stdout == ""
    assert "unknown task 'nope'" in run.stderr


def test_an_unreachable_server_ends_every_episode_cleanly(planner_model: StandIn) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    run = invoke(planner_model, "standin-nowhere", "--env-url", url)
    episodes = episodes_of(run, NOTHING_MEASURED)
    assert [(len(e.steps), e.success) for e in episodes] == [(0, False)] * len(IN_ORDER)
    assert planner_model.requests == []
