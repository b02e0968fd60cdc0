"""Conversation limits in process (issue 7, item 4): a message has a maximum length, and an
episode has a step limit, so neither a 1 MB message nor thousands of messages can grow an
episode's state or its observations without bound. Both are refused with a typed error."""

from __future__ import annotations

from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction

from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment
from novamart.tools.registry import TOOLS

MESSAGE_LIMIT = TOOLS["respond_to_customer"].schema["properties"]["message"]["maxLength"]
MEGABYTE = "x" * 2**20


def say(env: NovamartEnvironment, message: str) -> NovamartObservation:
    observation = env.step(
        CallToolAction(tool_name="respond_to_customer", arguments={"message": message})
    )
    assert isinstance(observation, NovamartObservation)
    return observation


def code(observation: NovamartObservation) -> str | None:
    result = observation.last_tool_result or {}
    return None if result.get("ok") else result["error"]["code"]


def test_a_message_has_a_documented_maximum_length() -> None:
    assert 1_000 <= MESSAGE_LIMIT <= 10_000


def test_a_megabyte_message_is_refused_and_not_kept(env: NovamartEnvironment) -> None:
    env.reset(task="easy_refund")
    observation = say(env, MEGABYTE)
    assert code(observation) == "invalid_arguments"
    assert str(MESSAGE_LIMIT) in (observation.last_tool_result or {})["error"]["message"]
    assert len(observation.model_dump_json()) < 10_000
    assert observation.conversation_history == observation.conversation_history[:1]
    assert code(say(env, "Thank you, could you tell me your order number, please?")) is None


def test_a_message_at_the_limit_is_taken_and_one_over_is_refused(
    env: NovamartEnvironment,
) -> None:
    env.reset(task="easy_refund")
    assert code(say(env, "a" * (MESSAGE_LIMIT + 1))) == "invalid_arguments"
    assert code(say(env, "a" * MESSAGE_LIMIT)) is None


def test_thousands_of_messages_stop_at_the_step_limit(env: NovamartEnvironment) -> None:
    first = env.reset(task="loyalty_negotiation", seed=3)
    long = "Thank you for your patience. " * (MESSAGE_LIMIT // 40)
    observations = [say(env, f"{long} ({n})") for n in range(3_000)]
    limit = first.max_steps
    assert [o.done for o in observations[: limit - 1]] == [False] * (limit - 1)
    assert observations[limit - 1].done
    assert all(code(o) == "episode_over" for o in observations[limit:])
    assert all(o.step_number == limit for o in observations[limit:])
    last = observations[-1]
    assert len(last.conversation_history) <= 1 + 2 * limit
    assert last.final_score == observations[limit - 1].final_score
    assert all(o.reward == 0.0 for o in observations[limit:])
    episode = env.episode
    assert episode is not None and len(episode.calls) == limit


def test_listing_tools_is_free_and_grows_nothing(env: NovamartEnvironment) -> None:
    env.reset(task="easy_refund")
    for _ in range(2_000):
        env.step(ListToolsAction())
    episode = env.episode
    assert episode is not None and episode.step == 0 and episode.calls == []
    assert code(say(env, "Thank you, one moment please.")) is None
