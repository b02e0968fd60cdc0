"""The web UI's parts without a browser: the arguments form read from the real tool schemas,
the pool that gives each tab its own episode, and the panels' rounding and wording. Real
environments on the real rules; the browser tests (tests/browser) click the same page."""

from __future__ import annotations

import pytest
from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction

from novamart.kernel import default_kernel
from novamart.server.environment import NovamartEnvironment
from novamart.server.web_episodes import NoEpisodeFree, WebEpisodes
from novamart.server.web_form import (
    FormProblem,
    arguments_from,
    explain_error,
    fields_of,
    initial_value,
)
from novamart.server.web_panels import chat_messages, ending_panel, rounded, step_row


def listed(env: NovamartEnvironment) -> dict[str, dict]:
    return {t.name: t.input_schema for t in env.step(ListToolsAction()).tools}


@pytest.fixture
def env() -> NovamartEnvironment:
    environment = NovamartEnvironment()
    environment.reset(task="defect_resolution", seed=4)
    return environment


def test_the_form_prefills_only_what_the_case_shows(env: NovamartEnvironment) -> None:
    observation = env.reset(task="defect_resolution", seed=4).model_dump()
    schemas = listed(env)
    refund = {f.name: f for f in fields_of(schemas["process_refund"])}
    assert refund["amount"].kind == "number" and refund["amount"].required
    assert initial_value(refund["amount"], observation) is None  # empty, never 0
    assert initial_value(refund["order_id"], observation) == observation["order_id"]
    [policy] = [f for f in fields_of(schemas["check_policy"]) if f.name == "policy"]
    rules = default_kernel().snapshot().rulebook
    assert policy.kind == "choice" and set(policy.choices) == set(rules.policies)
    assert initial_value(policy, observation) is None  # no {"policy": ""}


def test_an_empty_required_argument_is_not_sent_and_names_its_choices(
    env: NovamartEnvironment,
) -> None:
    fields = fields_of(listed(env)["check_policy"])
    with pytest.raises(FormProblem, match=r"policy \(one of: .*defective_item"):
        arguments_from(fields, {"policy": None, "order_id": "ORD-100002"})
    refund = fields_of(listed(env)["process_refund"])
    with pytest.raises(FormProblem, match="fill in amount"):
        arguments_from(refund, {"order_id": "ORD-100002", "amount": "  "})
    with pytest.raises(FormProblem, match="amount must be a number"):
        arguments_from(refund, {"order_id": "ORD-100002", "amount": "lots"})
    with pytest.raises(FormProblem, match="finite"):
        arguments_from(refund, {"order_id": "ORD-100002", "amount": "nan"})
    sent = arguments_from(refund, {"order_id": "ORD-100002", "amount": "649"})
    assert sent == {"order_id": "ORD-100002", "amount": 649.0}
    escalate = fields_of(listed(env)["escalate_to_manager"])
    assert arguments_from(escalate, {"order_id": "", "reason": "a swollen battery"}) == {
        "reason": "a swollen battery"
    }  # an empty optional argument is left out


def test_a_refusal_lists_the_allowed_values(env: NovamartEnvironment) -> None:
    fields = fields_of(listed(env)["check_policy"])
    observation = env.step(
        CallToolAction(tool_name="check_policy", arguments={"policy": "", "order_id": "x"})
    )
    error = observation.last_tool_result["error"]
    assert "standard_return" not in error["message"]  # the tool's own message does not
    assert "policy is one of:" in explain_error(error, fields)
    assert "standard_return" in explain_error(error, fields)


def test_rewards_are_rounded_and_the_opening_message_is_shown_once(
    env: NovamartEnvironment,
) -> None:
    assert rounded(-0.012499999999999997) == -0.012
    assert str(rounded(-0.0001)) == "0.0"  # no -0.0
    first = env.reset(task="defect_resolution", seed=4)
    refund = CallToolAction(
        tool_name="process_refund", arguments={"order_id": first.order_id, "amount": 649.0}
    )
    observation = env.step(refund)
    row = step_row(observation, refund.arguments, env.state.grade)
    assert row[1] == "process_refund" and row[3] == "not_established"
    assert all(len(str(v).partition(".")[2]) <= 3 for v in row[4:]), row
    said = env.step(
        CallToolAction(tool_name="respond_to_customer", arguments={"message": "Tell me more?"})
    )
    turns = chat_messages(said.conversation_history, said.issue_description)
    assert [t["role"] for t in turns] == ["user", "assistant"]  # the opening is in the card
    assert all(first.issue_description not in t["content"] for t in turns)


def test_the_end_panel_gives_score_reason_notes_and_optimum() -> None:
    env = NovamartEnvironment()
    first = env.reset(task="defect_resolution", seed=4)
    for tool, args in [
        ("lookup_order", {"order_id": first.order_id}),
        ("verify_defect", {"order_id": first.order_id}),
        ("process_exchange", {"order_id": first.order_id}),
        ("respond_to_customer", {"message": "We have arranged an exchange for you."}),
    ]:
        last = env.step(CallToolAction(tool_name=tool, arguments=args))
    assert last.done
    panel = ending_panel(last, env.state.grade_terms, env.episode.rules.rulebook)
    assert f"Final score: {rounded(last.final_score)}" in panel
    assert "the customer closed the conversation" in panel
    for term in last.grader_notes:
        assert f"| {term} |" in panel
    assert "Best allowed: **full_refund** ($649.00) under defective_item" in panel
    clause = env.episode.rules.rulebook.policies["defective_item"].clause
    assert clause in panel
    assert "**exchange** under defective_item" in panel  # no "exchange ($0.00)"


def test_each_tab_has_its_own_episode_and_the_pool_is_bounded() -> None:
    clock = [0.0]
    pool = WebEpisodes(cap=2, idle_s=60, clock=lambda: clock[0])
    first, second = pool.usable(None), pool.usable(None)
    assert first.env is not second.env and len(pool) == 2
    first.env.reset(task="easy_refund")
    second.env.reset(task="ticket_triage", seed=1)
    assert first.env.state.task == "easy_refund"  # the other tab's reset left it alone
    with pytest.raises(NoEpisodeFree, match="all 2 web episodes are in use"):
        pool.usable(None)
    clock[0] = 30.0
    assert pool.touch(first)  # first is used again; second idles on
    clock[0] = 70.0
    third = pool.usable(None)  # room is made by reaping the idle one only
    assert not pool.touch(second) and pool.touch(first) and len(pool) == 2
    assert pool.usable(first) is first
    pool.close(third)
    pool.close(third)  # Gradio's callback may come after the reaper: harmless
    assert len(pool) == 1
