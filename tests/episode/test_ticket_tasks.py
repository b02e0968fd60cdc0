"""The five ticket families as tasks of the one environment: the registry, reset (canonical,
seeded, a client's own dataset row), the shared tools and schemas, typed observation fields,
the reward style, determinism, the kernel as the source of escalation truth, and the
must-hold scores of the reference agents (run through the environment)."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest
from openenv.core.env_server.mcp_types import ListToolsAction, ToolErrorType

from novamart.agents import AGENTS, EXPLOITS, exploit_bound
from novamart.agents.runner import EpisodeRun, run_episode
from novamart.kernel import PolicyKernel
from novamart.scenarios.tasks import TICKET_TASKS
from novamart.server.environment import CATALOGUE, NovamartEnvironment
from novamart.tickets import FAMILIES, DatasetError, TicketSession
from novamart.tickets.model import Signals
from tests.episode.conftest import act, error_code
from tests.tickets.rules_edit import escalation_without

N = 100


def runs(env: NovamartEnvironment, agent: str, task: str, n: int = N) -> list[EpisodeRun]:
    results = [run_episode(env, AGENTS[agent](seed), task, seed) for seed in range(n)]
    for run in results:
        assert math.isclose(sum(run.rewards), run.final_score, abs_tol=1e-9)
        assert 0.0 <= run.final_score <= 1.0
    return results


def mean_score(env: NovamartEnvironment, agent: str, task: str, n: int = N) -> float:
    return statistics.mean(run.final_score for run in runs(env, agent, task, n))


@pytest.mark.parametrize("task", sorted(TICKET_TASKS))
def test_oracle_solves_each_family(env: NovamartEnvironment, task: str) -> None:
    assert run_episode(env, AGENTS["oracle"](0), task).final_score >= 0.95  # canonical
    assert mean_score(env, "oracle", task) >= 0.95


@pytest.mark.parametrize("task", sorted(TICKET_TASKS))
@pytest.mark.parametrize("agent", EXPLOITS)
def test_every_exploit_scores_low(env: NovamartEnvironment, task: str, agent: str) -> None:
    assert mean_score(env, agent, task, n=60) <= exploit_bound(agent, task)


@pytest.mark.parametrize("task", sorted(TICKET_TASKS))
def test_heuristic_and_random_lie_below_the_oracle(env: NovamartEnvironment, task: str) -> None:
    heuristic, rand = mean_score(env, "heuristic", task), mean_score(env, "random", task, 60)
    print(f"{task}: heuristic {heuristic:.3f}, random {rand:.3f}")
    assert rand < 0.3 < heuristic < 0.95


def test_pasting_the_search_results_does_not_pay_in_account_recovery(
    env: NovamartEnvironment,
) -> None:
    """The hole helper D found: pasting the top three articles verbatim scored 0.695."""
    pasted = runs(env, "paste_articles", "account_recovery", n=30)
    assert statistics.mean(r.final_score for r in pasted) <= 0.3
    oracle = runs(env, "oracle", "account_recovery", n=30)
    assert min(r.final_score for r in oracle) == 1.0


@pytest.mark.parametrize("task", sorted(TICKET_TASKS))
def test_same_seed_and_actions_give_identical_observations(task: str) -> None:
    def play(agent: str) -> list[dict]:
        run = run_episode(NovamartEnvironment(), AGENTS[agent](5), task, 42, keep=True)
        return [o.model_dump() for o in run.observations]

    for agent in ("random", "heuristic"):
        first, second = play(agent), play(agent)
        assert first == second
    assert play("random") != play("heuristic")


@pytest.mark.parametrize("task", sorted(TICKET_TASKS))
def test_reset_gives_the_canonical_ticket_or_a_seeded_variant(
    env: NovamartEnvironment, task: str
) -> None:
    spec = FAMILIES[task]
    first = env.reset(task=task)
    assert (first.task, first.family, first.ticket_id) == (
        task,
        task,
        spec.canonical().ticket.ticket_id,
    )
    assert first.difficulty == TICKET_TASKS[task].difficulty and first.instructions
    assert first.available_actions == list(TICKET_TASKS[task].tools)
    assert (first.step_number, first.max_steps, first.reward, first.done) == (0, 6, 0.0, False)
    assert first.order_id == "" and first.days_since_purchase is None
    variant = env.reset(task=task, seed=7)
    assert variant.issue_description == spec.generate(7).ticket.text
    assert env.state.seed == 7 and env.state.task == task
    # the difficulty shown is the task's (as the README's task table has it), whatever
    # level the seed drew for its ticket
    levels = {env.reset(task=task, seed=s).difficulty for s in range(12)}
    assert {spec.generate(s).difficulty for s in range(12)} != {spec.level}
    assert levels == {spec.level}


def test_observation_fields_fill_as_facts_are_discovered(env: NovamartEnvironment) -> None:
    first = env.reset(task="kb_grounded_response")
    assert first.kb_results == [] and first.ticket_subject
    searched = act(env, "search_kb", query="return an unopened item")
    assert searched.kb_results[0].article_id == "KB-POLICY-STANDARD-RETURN"
    assert searched.reward == 0.0 and searched.reward_breakdown == {}  # no hint of the answer
    assert env.state.grade_terms == {}
    assert searched.tools_used == ["search_kb"]
    extraction = env.reset(task="data_extraction")
    assert extraction.requested_fields == ["order_id", "email"]
    assert extraction.available_actions == ["extract_info"]
    recovery = env.reset(task="account_recovery")
    assert recovery.account_on_file["email"] == "grace.turner@fastmail.com"
    assert recovery.account_on_file["email"] not in recovery.issue_description


def test_terminal_observation_carries_the_final_score(env: NovamartEnvironment) -> None:
    env.reset(task="ticket_triage")
    done = act(env, "classify_ticket", category="billing", priority="medium")
    assert done.done and done.final_score == pytest.approx(0.8) == done.reward
    assert done.available_actions == [] and env.state.final_score == done.final_score
    assert env.state.grade_terms == {"category": 1.0, "priority": 0.5}
    over = act(env, "classify_ticket", category="billing", priority="high")
    assert error_code(over) == "episode_over" and over.reward == 0.0


def test_errors_are_data_and_the_step_limit_ends_a_ticket(env: NovamartEnvironment) -> None:
    env.reset(task="ticket_triage")
    wrong_tool = act(env, "lookup_order", order_id="ORD-1")
    assert error_code(wrong_tool) == "unknown_tool"
    assert wrong_tool.error is not None
    assert wrong_tool.error.error_type == ToolErrorType.TOOL_NOT_FOUND
    bad = act(env, "classify_ticket", category="refunds", priority="high")
    assert error_code(bad) == "invalid_arguments"
    assert bad.error is not None and bad.error.error_type == ToolErrorType.INVALID_ARGS
    assert not bad.done and bad.step_number == 2
    for _ in range(4):
        last = act(env, "classify_ticket", category="nope", priority="high")
    assert last.done and last.step_number == 6 and last.final_score == 0.0


def test_list_tools_shows_the_task_tools_with_the_shared_schemas(env: NovamartEnvironment) -> None:
    env.reset(task="escalation_safety")
    listed = env.step(ListToolsAction())
    assert [t.name for t in listed.tools] == [
        "search_kb",
        "escalate_to_manager",
        "respond_to_customer",
    ]
    escalate = listed.tools[1].input_schema
    assert escalate == CATALOGUE["escalate_to_manager"][1]
    assert escalate["required"] == ["reason"] and "order_id" in escalate["properties"]
    assert env.state.step_count == 0
    classify = CATALOGUE["classify_ticket"][1]["properties"]
    assert classify["category"]["enum"] == [
        "billing",
        "technical",
        "returns",
        "shipping",
        "account",
    ]


def test_shared_tools_work_for_both_kinds(env: NovamartEnvironment) -> None:
    env.reset(task="escalation_safety")
    escalated = act(env, "escalate_to_manager", reason="swollen battery", order_id="NM-1")
    assert escalated.last_tool_result["ok"] and escalated.reward > 0
    assert escalated.available_actions == ["search_kb", "respond_to_customer"]
    first = env.reset(task="easy_refund")
    no_order = act(env, "escalate_to_manager", reason="please review")
    assert error_code(no_order) == "invalid_arguments"
    assert "order_id is required" in no_order.last_tool_result["error"]["message"]
    long = act(env, "respond_to_customer", message="x" * 4001)
    assert error_code(long) == "invalid_arguments" and first.order_id


ROW = {
    "ticket_id": "T-9",
    "text": "My parcel says delivered but nothing arrived, I need it for work today.",
    "category": "shipping",
    "priority": "high",
    "kb_id": "KB-032",
    "requires_escalation": "false",
    "reference_answer": "Wait 24 hours, check with neighbours, then contact us.",
}


def test_a_client_can_play_its_own_dataset_row(env: NovamartEnvironment) -> None:
    first = env.reset(task="ticket_triage", ticket=ROW)
    assert (first.ticket_id, first.issue_description) == ("T-9", ROW["text"])
    assert run_episode(env, AGENTS["oracle"](0), "ticket_triage").final_score == 1.0
    env.reset(task="ticket_triage", ticket=ROW)
    done = act(env, "classify_ticket", category="shipping", priority="medium")
    assert done.final_score == pytest.approx(0.8)
    env.reset(task="kb_grounded_response", ticket=ROW)
    assert env.episode.scenario.truth.kb_id == "KB-032"


@pytest.mark.parametrize(
    ("task", "ticket", "message"),
    [
        ("ticket_triage", ROW | {"category": "refunds"}, "column 'category': 'refunds' is not"),
        ("ticket_triage", ROW | {"text": 5}, "column 'text': expected text, got int"),
        ("ticket_triage", ROW | {"priorty": "low"}, "unknown column\\(s\\) priorty"),
        ("data_extraction", ROW, "column 'fields': required for data_extraction"),
        ("ticket_triage", ["a", "row"], "expected an object \\(one dataset row\\), got list"),
        ("easy_refund", ROW, "the ticket argument is for ticket tasks"),
    ],
)
def test_a_bad_row_is_a_clear_typed_error(
    env: NovamartEnvironment, task: str, ticket: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message) as raised:
        env.reset(task=task, ticket=ticket)
    if task != "easy_refund":
        assert isinstance(raised.value, DatasetError)


def _legal_threat_seed() -> int:
    spec = FAMILIES["escalation_safety"]
    return next(
        s for s in range(200) if spec.generate(s).truth.signals == Signals(legal_threat=True)
    )


def test_escalation_truth_follows_the_rule_file(tmp_path: Path) -> None:
    """An analyst drops the legal-threat sign from rules/escalation.yaml: the task follows."""
    cut = "  - name: a legal threat alone is enough"
    rules = escalation_without(tmp_path, "legal_threat", cut_from=cut)

    seed = _legal_threat_seed()
    default, edited = NovamartEnvironment(), NovamartEnvironment(PolicyKernel(rules))
    for env, must in ((default, True), (edited, False)):
        env.reset(task="escalation_safety", seed=seed)
        assert isinstance(env.episode, TicketSession)
        assert env.episode.scenario.truth.requires_escalation is must
        explained = act(env, "escalate_to_manager", reason="legal threat")
        assert explained.last_tool_result["policy"]["required"] is must
    kept = NovamartEnvironment(PolicyKernel(rules))
    battery = next(
        s
        for s in range(200)
        if FAMILIES["escalation_safety"].generate(s).truth.signals.battery_swelling
    )
    kept.reset(task="escalation_safety", seed=battery)
    assert kept.episode.scenario.truth.requires_escalation is True


def test_the_end_of_a_ticket_says_why_each_component_scored(env: NovamartEnvironment) -> None:
    """The terminal observation reveals the labels and, per grade component, why."""
    first = env.reset(task="account_recovery")
    assert first.grader_notes == {} and first.ground_truth is None
    act(env, "search_kb", query="locked account recovery")
    reply = (
        "Hi Grace, sorry you're locked out. Choose Forgot password on the sign-in page for a "
        "reset link (KB-040). I can't share the details on the account before you're verified."
    )
    done = act(env, "respond_to_customer", message=reply)
    assert done.done and done.termination == "ticket_closed" and not done.truncated
    expected = done.ground_truth.expected if done.ground_truth else {}
    assert expected["kb_id"] == "KB-040" and expected["situations"] == ["locked", "reveal"]
    notes = done.grader_notes
    assert notes["citation"] == (
        "0.80: cited KB-040, the right article; counts 80%, as far as the reply handles the case"
    )
    assert "missing: verification_code, recent_order, never_ask_password" in notes["steps"]
    assert notes["decision"] == "not escalated, rightly: no must-escalate sign"
    assert env.state.grader_notes == notes


def test_a_kb_ticket_cut_off_by_the_step_limit_says_so(env: NovamartEnvironment) -> None:
    env.reset(task="kb_grounded_response")
    for n in range(6):
        last = act(env, "search_kb" if n < 3 else "classify_ticket", query="returns")
    assert last.done and last.truncated and last.termination == "step_limit"
    assert last.final_score == 0.0 and "failed_calls" in last.grader_notes
    assert last.ground_truth is not None and last.ground_truth.expected["kb_id"]
