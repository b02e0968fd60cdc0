"""NovaMart for TRL's ``GRPOTrainer(environment_factory=...)``: one class per tool set.

TRL turns every public method of an environment class into a tool (its schema from the type
hints and the Google-style docstring), calls ``reset(**row)`` with every column of the
dataset row (``prompt`` included) and appends the string it returns to the prompt, and takes
the rollout's reward from ``get_reward()``. ``NovamartEnvironment`` itself fits none of that
(its public methods are ``step``, ``close``, ...), so these classes do:

- ``ENVIRONMENTS`` maps a name to a class for each distinct tool set of the task registry
  (``order`` for the order cases; one per ticket tool set, named by its first task), and
  ``ENV_OF_TASK`` says which plays a task. Pass the dict as ``environment_factory`` and give
  each row an ``environment`` column (``make_dataset`` does): each prompt then carries only
  its own tools.
- The tool methods are generated from the environment's own tool catalogue (names,
  descriptions, argument types and enums, which arguments are required), so they cannot
  drift from what the environment serves, and a tool or task added to the registry appears
  without an edit here. Each returns the tool's result as JSON text (TRL would ``str()`` a
  dict into a Python repr). Arguments go to NovaMart as the model wrote them: a missing or
  unknown argument is NovaMart's ``invalid_arguments`` error, scored as an invalid call.
- ``reset(task=..., seed=..., ticket_json=..., split=..., index=...)`` plays that case (a
  GRPO group shares its row, so its generations play the same case); other columns
  (``prompt``, anything else in the row) are ignored. Returns the case brief.
- ``get_reward()`` is the running grade: the final score once the episode is over, the grade
  so far when the trainer cut the rollout short (``max_tool_calling_iterations``, the
  completion length). It is never the last step's reward.
- A tool called after the episode ended raises ``EpisodeOver``; TRL feeds the error back to
  the model as the tool's answer and the rollout stops there.

A plain-text reply: TRL ends a rollout at the first model turn without a tool call, and that
text never reaches NovaMart, so it is not a message to the customer (``inference.py``'s agent
delivers such a reply through ``respond_to_customer``; training does not). An order case is
closed, and its communication credit earned, only by a ``respond_to_customer`` call; the
system prompt of ``make_dataset`` says so.

In-process by default (no server, one environment per instance, nothing shared between
instances but the read-only rule kernel); ``functools.partial(cls, base_url=URL)`` plays on a
server instead, one plain ``/ws`` session per instance (any worker count; keep the pool within
MAX_CONCURRENT_ENVS, which is per worker), reopened at the next reset when the server reaped
it while idle. ``base_url=[URL1, URL2, ...]`` (or "URL1,URL2") shards the instances over
several servers, each instance pinned to one, spread evenly. Both are picklable factories.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from novamart.client import ServerUrls
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import CATALOGUE
from novamart.training.episode import EpisodeOver, ToolEpisode

__all__ = ["ENVIRONMENTS", "ENV_OF_TASK", "EpisodeOver", "NovamartToolEnv"]

TEXT_REPLY_NOTE = (
    "Only tool calls reach the customer: write every message to them with "
    "respond_to_customer; a reply without a tool call ends the conversation unsent."
)


class NovamartToolEnv:
    """A NovaMart episode whose tools are this class's public methods (see the module)."""

    TASKS: ClassVar[tuple[str, ...]] = ()
    """The tasks this tool set plays."""

    def __init__(self, base_url: ServerUrls | None = None) -> None:
        self._episode = ToolEpisode(base_url)

    def reset(
        self,
        task: str | None = None,
        seed: int | None = None,
        ticket_json: str | None = None,
        split: str | None = None,
        index: int | None = None,
        mode: str | None = None,
        policy_variant: int | None = None,
        **other_columns: Any,
    ) -> str:
        """Start the row's case; ``ticket_json`` is a dataset ticket as a JSON string; an
        order or retail row may name its ``mode`` and ``policy_variant``."""
        ticket = None if ticket_json is None else json.loads(ticket_json)
        brief = self._episode.reset(
            task=task,
            seed=seed,
            ticket=ticket,
            split=split,
            index=index,
            mode=mode,
            policy_variant=policy_variant,
        )
        if self._episode.task not in self.TASKS:
            raise ValueError(
                f"{type(self).__name__} plays {', '.join(self.TASKS)}, not {self._episode.task}"
            )
        return brief

    def get_reward(self) -> float:
        """The running grade (the final score once the episode is over)."""
        return self._episode.grade

    @property
    def episode(self) -> ToolEpisode:
        """The episode behind the tools: its observation, step rewards, done (for logging)."""
        return self._episode

    def __enter__(self) -> NovamartToolEnv:
        return self

    def __exit__(self, *_: object) -> None:
        self._episode.close()


def _python_type(spec: dict[str, Any]) -> Any:
    """The type hint TRL (transformers' ``get_json_schema``) turns back into ``spec``."""
    if "enum" in spec:
        return Literal[tuple(spec["enum"])]
    if "anyOf" in spec:
        kinds = [_python_type(s) for s in spec["anyOf"] if s.get("type") != "null"]
        return kinds[0] | None
    kind = spec.get("type")
    if kind == "array":
        return list[_python_type(spec.get("items", {"type": "string"}))]
    if kind == "object":
        values = spec.get("additionalProperties")
        return dict[str, _python_type(values)] if isinstance(values, dict) else dict[str, Any]
    return {"string": str, "number": float, "integer": int, "boolean": bool}[kind]


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def tool_method(name: str) -> Callable[..., str]:
    """A method calling NovaMart's tool ``name``, typed and documented from its schema."""
    description, schema = CATALOGUE[name]
    required = set(schema.get("required", ()))
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    lines = [_one_line(description), "", "Args:"]
    for argument, spec in schema["properties"].items():
        hint = _python_type(spec)
        default = inspect.Parameter.empty if argument in required else spec.get("default")
        parameters.append(
            inspect.Parameter(
                argument, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint
            )
        )
        annotations[argument] = hint
        about = spec.get("description") or spec.get("title") or argument
        lines.append(f"    {argument}: {_one_line(about)}")
    lines += ["", "Returns:", "    The tool's result as JSON, with the case fields it changed."]
    annotations["return"] = str

    def call(self: NovamartToolEnv, **arguments: Any) -> str:
        return self._episode.call(name, arguments)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = "\n".join(lines)
    call.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    call.__annotations__ = annotations
    return call


def _class_name(environment: str) -> str:
    return "".join(part.title() for part in environment.split("_")) + "Env"


def _tool_sets() -> dict[str, tuple[str, ...]]:
    """Environment name -> the tasks of one tool set: ``order`` for the order cases, ``retail``
    for the retail cases, else the first ticket task offering those tools."""
    by_tools: dict[tuple[str, ...], list[str]] = {}
    for spec in TASKS.values():
        by_tools.setdefault(spec.tools, []).append(spec.name)
    named: dict[str, tuple[str, ...]] = {}
    for tasks in by_tools.values():
        first = TASKS[tasks[0]]
        kind = "retail" if first.is_retail else "order" if not first.is_ticket else first.name
        named[kind] = tuple(tasks)
    return named


def _build_environments() -> dict[str, type[NovamartToolEnv]]:
    classes: dict[str, type[NovamartToolEnv]] = {}
    for environment, tasks in _tool_sets().items():
        methods = {name: tool_method(name) for name in TASKS[tasks[0]].tools}
        name = _class_name(environment)
        attributes = {"TASKS": tasks, "__module__": __name__, "__qualname__": name, **methods}
        attributes["__doc__"] = (
            f"NovaMart's {', '.join(tasks)} for TRL; tools: {', '.join(methods)}."
        )
        cls = type(name, (NovamartToolEnv,), attributes)
        setattr(sys.modules[__name__], name, cls)  # importable by name: picklable
        classes[environment] = cls
    return classes


ENVIRONMENTS: dict[str, type[NovamartToolEnv]] = _build_environments()
"""Environment name -> class, for ``GRPOTrainer(environment_factory=ENVIRONMENTS)``."""
ENV_OF_TASK: dict[str, str] = {
    task: environment for environment, cls in ENVIRONMENTS.items() for task in cls.TASKS
}
"""Task -> the name of the environment that plays it."""
