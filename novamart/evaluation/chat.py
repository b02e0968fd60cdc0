"""One OpenAI-compatible chat model behind a patient caller.

Every model call goes through the ``openai`` client (temperature 0 unless the settings say
otherwise; a seed when the caller gives one). Transient failures (timeouts, dropped
connections, 408/409/429/5xx, a reply that is not a chat completion) are retried with
exponential backoff; after the last attempt, or on a permanent error such as a bad key, the
call raises ``ModelUnavailable`` and the episode ends cleanly. A model without a key is
never called (``MissingApiKey``): the agent's, the customer's and any later role's (a judge)
settings come from their own environment variables (``ModelVariables``).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import openai
from pydantic import BaseModel, Field

log = logging.getLogger(__name__)

DEFAULT_API_BASE_URL = "https://router.huggingface.co/v1"
DEFAULT_MODEL = "Qwen/Qwen2.5-72B-Instruct"
RETRY_STATUSES = frozenset({408, 409, 429})


class ModelUnavailable(RuntimeError):
    """The model gave no usable reply: retries exhausted or a permanent API error."""


class MalformedReply(ValueError):
    """The server answered, but not with a chat completion."""


class MissingApiKey(ValueError):
    """No key is set for a model: nothing is sent anywhere without one."""


@dataclass(frozen=True)
class ModelVariables:
    """The environment variables one model is configured by: the agent's are the
    hackathon's (API_BASE_URL, MODEL_NAME, HF_TOKEN / OPENAI_API_KEY / API_KEY); a model with
    another role (the LLM customer) has its own, so it can live elsewhere."""

    role: str
    base_url: str
    model: str
    keys: tuple[str, ...]

    def missing_key(self) -> str:
        keys = " or ".join(self.keys)
        return (
            f"no API key for the {self.role} model: set {keys} "
            "(any value for a local server that needs none)"
        )


AGENT_VARIABLES = ModelVariables(
    "agent", "API_BASE_URL", "MODEL_NAME", ("HF_TOKEN", "OPENAI_API_KEY", "API_KEY")
)


class LLMSettings(BaseModel):
    """How to reach the model. Only the key has no default. The episode budget bounds a
    run: the eight tasks take at most 8 x 120 s of model time (16 minutes), under 20 however
    slow the API; at typical latency an order case needs a few model calls of seconds each,
    a ticket one to three."""

    api_base_url: str = DEFAULT_API_BASE_URL
    model: str = DEFAULT_MODEL
    api_key: str | None = Field(default=None, repr=False)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    timeout_s: float = Field(default=30.0, gt=0, description="Per request")
    retries: int = Field(default=3, ge=0, description="Further attempts after a failure")
    backoff_s: float = Field(default=1.0, ge=0, description="First wait; doubles each retry")
    max_tokens: int = Field(default=1024, ge=1)
    episode_budget_s: float = Field(
        default=120.0, gt=0, description="Model time per episode, retries included"
    )

    @classmethod
    def from_environ(
        cls,
        environ: Mapping[str, str] = os.environ,
        variables: ModelVariables = AGENT_VARIABLES,
        **overrides: Any,
    ) -> LLMSettings:
        """The base URL, model and first key set among ``variables``; ``overrides`` that
        are not None win (command-line options)."""
        values: dict[str, Any] = {}
        if environ.get(variables.base_url):
            values["api_base_url"] = environ[variables.base_url]
        if environ.get(variables.model):
            values["model"] = environ[variables.model]
        key = next((environ[v] for v in variables.keys if environ.get(v)), None)
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
    """Chat completions (with tools, or plain), retried; ``sleep`` is injectable so waits
    can be skipped. MissingApiKey without a key: no client is made, nothing is sent."""

    def __init__(
        self,
        settings: LLMSettings,
        sleep: Callable[[float], None] = time.sleep,
        variables: ModelVariables = AGENT_VARIABLES,
    ) -> None:
        if not settings.api_key:
            raise MissingApiKey(variables.missing_key())
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
        tools: list[dict[str, Any]] | None = None,
        deadline: float | None = None,
        seed: int | None = None,
    ) -> Reply:
        """The model's next reply at the settings' temperature; ModelUnavailable when none
        comes. ``tools`` are function specs (None: a plain chat), ``seed`` goes to the API
        (reproducible sampling where the server supports it).

        ``deadline`` (a time.monotonic() value) shortens each request's timeout to the time
        left and ends the retries once it has passed.
        """
        extra: dict[str, Any] = {}
        if tools is not None:
            extra["tools"] = tools
        if seed is not None:
            extra["seed"] = seed
        attempt = 1
        while True:
            client = self._client.with_options(timeout=self._time_left(deadline))
            try:
                completion = client.chat.completions.create(
                    model=self.settings.model,
                    messages=messages,  # type: ignore[arg-type]
                    temperature=self.settings.temperature,
                    max_tokens=self.settings.max_tokens,
                    **extra,
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
