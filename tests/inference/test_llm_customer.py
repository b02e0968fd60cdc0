"""``--customer llm``: a model (the stand-in, on loopback) plays the customer of an order case.

Its requests carry what a customer needs (the case's hidden truth, the persona, the
conversation from the customer's side, the case's seed); its replies are what the agent
reads, and its stop token ends the episode. Without the token the conversation runs to the
step limit; a customer model that never answers ends the episode early."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from novamart.evaluation.llm_customer import STOP, TONES
from novamart.evaluation.results import EpisodeResult, EvalResults
from novamart.evaluation.status import NOTHING_MEASURED
from novamart.kernel import default_kernel
from novamart.scenarios import TASKS, build_scenario
from novamart.scenarios.personas import PERSONAS
from tests.inference.loglines import parse
from tests.inference.standin import Answer, StandIn, serve, status, text
from tests.inference.test_eval_cli import app as eval_app
from tests.inference.test_inference_script import app as inference_app

TASK = "loyalty_negotiation"


def _lying_haggler(seed: int) -> bool:
    scenario = build_scenario(TASK, seed)
    claims = PERSONAS[scenario.persona].trait == "tier_claim"
    lies = claims and scenario.claimed_tier not in (None, scenario.customer.tier)
    claimed = scenario.defect_claimed and not scenario.defect_real
    return lies and claimed and scenario.pushes_back and not scenario.faults


SEED = next(s for s in range(1_000) if _lying_haggler(s))
"""A haggling customer who lies about their tier and claims a defect a check will not find
(and no tool fails, so the stop token comes before the step limit)."""
PUSHBACK = "Store credit? I asked for my money back. Why is a refund not possible?"
SETTLED = f"Fine, I'll take the credit. Thanks. {STOP}"


@contextmanager
def customer(*answers: Answer) -> Iterator[StandIn]:
    """A stand-in customer giving ``answers`` in turn, then the last one for ever."""
    with serve(lambda _body, i: answers[min(i, len(answers) - 1)]) as stand_in:
        yield stand_in


def evaluate(stand_in: StandIn, out: Path, *extra: str) -> Result:
    args = [
        "eval", "--agent", "heuristic", "--tasks", TASK, "--episodes", "1", "--seed", str(SEED),
        "--customer", "llm", "--customer-model", "customer-model",
        "--customer-api-base-url", stand_in.url, "--retries", "0", "--out", str(out), *extra,
    ]  # fmt: skip
    return CliRunner().invoke(eval_app, args, env={"CUSTOMER_API_KEY": "customer-key"})


def only_episode(out: Path) -> EpisodeResult:
    results = EvalResults.model_validate_json(out.read_text())
    assert results.settings.customer == "llm"
    assert results.settings.customer_model == "customer-model"
    (episode,) = results.episodes
    return episode


def messages_sent(episode: EpisodeResult) -> list[str]:
    return [s.arguments["message"] for s in episode.trajectory if s.tool == "respond_to_customer"]


def test_the_customer_model_is_told_the_case_and_its_replies_drive_the_episode(
    tmp_path: Path,
) -> None:
    with customer(text(PUSHBACK), text(SETTLED)) as stand_in:
        result = evaluate(stand_in, tmp_path / "r.json")
        assert result.exit_code == 0, result.output
    episode = only_episode(tmp_path / "r.json")
    scenario = build_scenario(TASK, SEED)
    persona = PERSONAS[scenario.persona]
    assert persona.trait == "tier_claim"
    assert len(stand_in.requests) == 2
    for request in stand_in.requests:
        assert request["model"] == "customer-model" and request["seed"] == SEED
        assert "tools" not in request
        system = request["messages"][0]
        assert system["role"] == "system"
        brief = system["content"]
        order, who = scenario.order, scenario.customer
        wish = default_kernel().rulebook.resolutions[scenario.wish].description
        truth = [order.order_id, order.product, f"{order.days_since_purchase} days ago"]
        truth += [f"${order.price:.2f}", scenario.symptom, "will not confirm a fault", wish]
        truth += [f"loyalty tier {who.tier}", f"claim to be a {scenario.claimed_tier} member"]
        assert all(part in brief for part in truth), brief
        assert "push back once" in brief and TONES[persona.tone] in brief and STOP in brief
        # the conversation from the customer's side: its opening, then the agent's words
        conversation = request["messages"][1:]
        assert conversation[0] == {"role": "assistant", "content": scenario.opening}
        assert conversation[-1]["role"] == "user"
    first, second = (r["messages"][1:] for r in stand_in.requests)
    sent = messages_sent(episode)
    assert [first[-1]["content"], second[-1]["content"]] == sent
    assert second[-2] == {"role": "assistant", "content": PUSHBACK}
    # the replies are what the agent read; the stop token closed the conversation
    replies = [s.customer_reply for s in episode.trajectory if s.tool == "respond_to_customer"]
    assert replies == [PUSHBACK, SETTLED.replace(STOP, "").strip()]
    last = episode.trajectory[-1]
    assert last.done and last.result == {
        "ok": True,
        "customer_reply": replies[-1],
        "conversation_closed": True,
    }
    assert episode.done and episode.error is None and episode.steps < TASKS[TASK].max_steps


def test_without_the_stop_token_the_conversation_runs_to_the_step_limit(tmp_path: Path) -> None:
    with customer(text("Hmm. Anything else?")) as stand_in:
        result = evaluate(stand_in, tmp_path / "r.json")
        assert result.exit_code == 0, result.output
    episode = only_episode(tmp_path / "r.json")
    limit = TASKS[TASK].max_steps
    assert episode.steps == limit and episode.done
    assert len(stand_in.requests) == len(messages_sent(episode)) >= 2
    assert episode.final_observation["step_number"] == limit


def test_a_silent_customer_model_ends_the_episode_early(tmp_path: Path) -> None:
    with customer(status(500)) as stand_in:
        result = evaluate(stand_in, tmp_path / "r.json")
    assert result.exit_code == NOTHING_MEASURED
    episode = only_episode(tmp_path / "r.json")
    assert episode.error is not None and episode.error.startswith("CustomerUnavailable")
    assert not episode.success and len(stand_in.requests) == 1


def test_the_simulator_stays_the_default_and_a_server_keeps_its_own(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    args = ["eval", "--agent", "heuristic", "--tasks", TASK, "--episodes", "1", "--seed", "1"]
    default = CliRunner().invoke(eval_app, [*args, "--out", str(out)])
    assert default.exit_code == 0, default.output
    results = EvalResults.model_validate_json(out.read_text())
    assert (results.settings.customer, results.settings.customer_model) == ("simulated", None)
    assert results.episodes[0].trajectory[-1].customer_reply not in (PUSHBACK, SETTLED)
    remote = CliRunner().invoke(
        eval_app,
        [*args, "--customer", "llm", "--env-url", "http://127.0.0.1:9"],
        env={"CUSTOMER_API_KEY": "k"},
    )
    assert remote.exit_code == 2 and "in this process" in remote.output


def test_inference_plays_the_llm_customer_too() -> None:
    def script(body: dict[str, Any], _index: int) -> Answer:
        agent_said = body["messages"][-1]["content"]
        return text(f"You said {len(agent_said)} characters. {STOP}")

    with serve(script) as stand_in:
        env = {"CUSTOMER_API_BASE_URL": stand_in.url, "CUSTOMER_API_KEY": "k"}
        args = ["--offline", "--customer", "llm", "--tasks", "easy_refund,defect_resolution"]
        result = CliRunner().invoke(inference_app, args, env=env)
    assert result.exit_code == 0, result.output
    episodes = parse(result.stdout)
    assert [e.task for e in episodes] == ["easy_refund", "defect_resolution"]
    # one customer turn each: the stop token closed the conversation at the first message
    assert len(stand_in.requests) == 2
    assert all(e.steps[-1].tool == "respond_to_customer" and e.steps[-1].done for e in episodes)


def test_one_llm_customer_plays_the_retail_cases_under_their_contract() -> None:
    """``--customer llm`` reaches the retail customer too: the model words every reply, and
    its ###STOP### at once does not end a conversation whose requests are still open."""

    def script(body: dict[str, Any], _index: int) -> Answer:
        return text(f"Fine, whatever you say. {STOP}")

    with serve(script) as stand_in:
        env = {"CUSTOMER_API_BASE_URL": stand_in.url, "CUSTOMER_API_KEY": "k"}
        args = ["--offline", "--customer", "llm", "--tasks", "retail_return"]
        result = CliRunner().invoke(inference_app, args, env=env)
    assert result.exit_code == 0, result.output
    (episode,) = parse(result.stdout)
    replies = [s for s in episode.steps if s.tool == "respond_to_customer"]
    assert len(replies) >= 2 and len(stand_in.requests) == len(replies)  # all the model's
    assert episode.steps[-1].tool == "respond_to_customer"
