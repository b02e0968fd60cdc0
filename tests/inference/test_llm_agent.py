"""The chat model and the LLM agent against the stand-in (real HTTP), in this process."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from novamart.evaluation.chat import ChatModel, LLMSettings, ModelUnavailable, ToolCallRequest
from novamart.evaluation.llm_agent import UNPARSED, LLMAgent, to_action
from novamart.evaluation.runner import run_episode
from novamart.evaluation.sessions import InProcessSession
from tests.inference.scripts import planner
from tests.inference.standin import GARBAGE, Answer, StandIn, serve, status, text

MESSAGES = [{"role": "user", "content": "hello"}]


@contextmanager
def scripted(*answers: Answer) -> Iterator[StandIn]:
    """A stand-in giving ``answers`` in turn, then the last one again and again."""
    with serve(lambda _body, i: answers[min(i, len(answers) - 1)]) as stand_in:
        yield stand_in


def model(stand_in: StandIn, waits: list[float], retries: int = 2) -> ChatModel:
    settings = LLMSettings(
        api_base_url=stand_in.url, model="m", api_key="k", retries=retries, backoff_s=0.5
    )
    return ChatModel(settings, sleep=waits.append)


def test_transient_failures_are_retried_with_doubling_waits() -> None:
    waits: list[float] = []
    with scripted(status(500), GARBAGE, text("hi")) as stand_in:
        reply = model(stand_in, waits).complete(MESSAGES, [])
        assert reply.content == "hi" and reply.tool_calls == []
        assert len(stand_in.requests) == 3
    assert waits == [0.5, 1.0]


def test_retries_run_out() -> None:
    waits: list[float] = []
    with scripted(status(503)) as stand_in:
        with pytest.raises(ModelUnavailable, match="attempt 3"):
            model(stand_in, waits).complete(MESSAGES, [])
        assert len(stand_in.requests) == 3


def test_a_permanent_error_is_not_retried() -> None:
    waits: list[float] = []
    with scripted(status(401)) as stand_in:
        with pytest.raises(ModelUnavailable, match="AuthenticationError"):
            model(stand_in, waits).complete(MESSAGES, [])
        assert len(stand_in.requests) == 1 and waits == []


def test_the_episode_budget_cuts_slow_replies_short() -> None:
    waits: list[float] = []
    with scripted(Answer(body=text("late").body, delay_s=2.0)) as stand_in:
        chat = model(stand_in, waits, retries=50)
        with pytest.raises(ModelUnavailable, match="time budget"):
            chat.complete(MESSAGES, [], deadline=time.monotonic() + 0.3)
        with pytest.raises(ModelUnavailable, match="time budget"):
            chat.complete(MESSAGES, [], deadline=time.monotonic())
    assert len(stand_in.requests) < 50


@pytest.mark.parametrize(
    ("raw", "arguments"),
    [
        ('{"order_id": "ORD-1"}', {"order_id": "ORD-1"}),
        ("", {}),
        ('{"order_id": ', {UNPARSED: '{"order_id": '}),
        ("[1, 2]", {UNPARSED: "[1, 2]"}),
    ],
)
def test_tool_arguments_become_actions_as_written(raw: str, arguments: dict) -> None:
    action = to_action(ToolCallRequest(id="c", name="lookup_order", arguments=raw))
    assert action.tool_name == "lookup_order" and action.arguments == arguments


def test_parallel_tool_calls_run_as_steps_from_one_model_call() -> None:
    session = InProcessSession()
    with serve(planner) as stand_in:
        settings = LLMSettings(api_base_url=stand_in.url, model="m", api_key="k", retries=0)
        agent = LLMAgent(ChatModel(settings), session.tools)
        result = run_episode(session, agent, "llm", "easy_refund", None, "m")
    assert result.error is None and result.done
    # the first reply held two tool calls, every later one a single action
    assert len(stand_in.requests) == result.steps - 1


def test_settings_from_environment() -> None:
    environ = {"API_KEY": "c", "OPENAI_API_KEY": "b", "HF_TOKEN": "a", "MODEL_NAME": "x"}
    settings = LLMSettings.from_environ(environ, api_base_url="http://h/v1", retries=None)
    assert (settings.api_key, settings.model, settings.api_base_url) == ("a", "x", "http://h/v1")
    assert settings.retries == LLMSettings().retries
    secret = LLMSettings.from_environ({"API_KEY": "sk-secret-123"})
    assert secret.api_key == "sk-secret-123" and "sk-secret-123" not in repr(secret)
