"""One OpenAI-compatible chat model behind a patient caller.

Every model call goes through the ``openai`` client at temperature 0. Transient failures
(timeouts, dropped connections, 408/409/429/5xx, a reply that is not a chat completion) are
retried with exponential backoff; after the last attempt, or on a permanent error such as a
bad key, the call raises ``ModelUnavailable`` and the episode ends cleanly.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

import openai
from pydantic import BaseModel, Field

log = logging.getLogger(__name__)

DEFAULT_API_BASE_URL = "https://router.huggingface.co/v1"
DEFAULT_MODEL = "Qwen/Qwen2.5-72B-Instruct"
KEY_VARIABLES = ("HF_TOKEN", "OPENAI_API_KEY", "API_KEY")
NO_KEY = "not-set"
"""Sent when no key variable is set: local OpenAI-compatible servers need none."""

RETRY_STATUSES = frozenset({408, 409, 429})


class ModelUnavailable(RuntimeError):
    """The model gave no usable reply: retries exhausted or a permanent API error."""


class MalformedReply(ValueError):
    """The server answered, but not with a chat completion."""


class LLMSettings(BaseModel):
    """How to reach the model. The episode budget bounds a run: the eight tasks take at most
    8 x 120 s of model time (16 minutes), under 20 however slow the API; at typical latency
    an order case needs a few model calls of seconds each, a ticket one to three."""

    api_base_url: str = DEFAULT_API_BASE_URL
    model: str = DEFAULT_MODEL
    api_key: str = Field(default=NO_KEY, repr=False)
    timeout_s: float = Field(default=30.0, gt=0, description="Per request")
    retries: int = Field(default=3, ge=0, description="Further attempts after a failure")
    backoff_s: float = Field(default=1.0, ge=0, description="First wait; doubles each retry")
    max_tokens: int = Field(default=1024, ge=1)
    episode_budget_s: float = Field(
        default=120.0, gt=0, description="Model time per episode, retries included"
    )

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] = os.environ, **overrides: Any) -> LLMSettings:
        """API_BASE_URL, MODEL_NAME and the first key of HF_TOKEN / OPENAI_API_KEY / API_KEY;
        ``overrides`` that are not None win (command-line options)."""
        values: dict[str, Any] = {}
        if environ.get("API_BASE_URL"):
            values["api_base_url"] = environ["API_BASE_URL"]
        if environ.get("MODEL_NAME"):
            values["model"] = environ["MODEL_NAME"]
        key = next((environ[v] for v in KEY_VARIABLES if environ.get(v)), None)
        if key:
            values["api_key"] = key
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(values)


class ToolCallRequest(BaseModel):
    """One function call the model asked for, arguments still as the raw text it wrote."""

    id: str
    name: str
    arguments: str


class Reply(BaseModel):
    content: str | None
    tool_calls: list[ToolCallRequest]


def parse_reply(completion: Any) -> Reply:
    """The first choice of a chat completion; anything else is a MalformedReply."""
    try:
        message = completion.choices[0].message
        calls = [
            ToolCallRequest(
                id=str(call.id or f"call_{i}"),
                name=str(call.function.name or ""),
                arguments=str(call.function.arguments or ""),
            )
            for i, call in enumerate(message.tool_calls or [])
        ]
        content = message.content
        if content is not None and not isinstance(content, str):
            raise TypeError(f"content is {type(content).__name__}")
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        raise MalformedReply(f"not a chat completion: {exc}") from exc
    return Reply(content=content, tool_calls=calls)


def retryable(exc: Exception) -> bool:
    """Worth another attempt: the server may answer properly next time."""
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in RETRY_STATUSES or exc.status_code >= 500
    return isinstance(
        exc, openai.APIConnectionError | openai.APIResponseValidationError | ValueError
    )


class ChatModel:
    """Chat completions with tools, retried; ``sleep`` is injectable so waits can be skipped."""

    def __init__(self, settings: LLMSettings, sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings
        self._sleep = sleep
        self._client = openai.OpenAI(
            base_url=settings.api_base_url,
            api_key=settings.api_key,
            timeout=settings.timeout_s,
            max_retries=0,  # one retry policy, ours, that also covers malformed replies
        )

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        deadline: float | None = None,
    ) -> Reply:
        """The model's next reply (temperature 0); ModelUnavailable when none comes.

        ``deadline`` (a time.monotonic() value) shortens each request's timeout to the time
        left and ends the retries once it has passed.
        """
        attempt = 1
        while True:
            client = self._client.with_options(timeout=self._time_left(deadline))
            try:
                completion = client.chat.completions.create(
                    model=self.settings.model,
                    messages=messages,  # type: ignore[arg-type]
                    tools=tools,  # type: ignore[arg-type]
                    temperature=0,
                    max_tokens=self.settings.max_tokens,
                )
                return parse_reply(completion)
            except (openai.OpenAIError, ValueError) as exc:
                reason = f"{type(exc).__name__}: {exc}"
                if not retryable(exc) or attempt > self.settings.retries:
                    raise ModelUnavailable(
                        f"model call failed (attempt {attempt}): {reason}"
                    ) from exc
                wait = self.settings.backoff_s * 2 ** (attempt - 1)
                log.warning(
                    "model call attempt %d failed (%s); retrying in %.1f s", attempt, reason, wait
                )
                self._sleep(wait)
                attempt += 1

    def _time_left(self, deadline: float | None) -> float:
        if deadline is None:
            return self.settings.timeout_s
        left = deadline - time.monotonic()
        if left <= 0:
            raise ModelUnavailable("the episode's time budget is used up")
        return min(self.settings.timeout_s, left)
