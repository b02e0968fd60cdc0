"""The three stdout line kinds that OpenEnv evaluation pipelines parse, and nothing else.

    [START] task=<task> env=novamart model=<model>
    [STEP] step=<n> action=<action> reward=<0.00> done=<true|false> error=<msg|null>
    [END] success=<true|false> steps=<n> score=<0.000> rewards=<r1,r2,...>

Every free-text field is folded onto one line (any Unicode line break or whitespace run
becomes one space) and shortened, so a tool result or a model reply can never break the
format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

ENV_NAME = "novamart"
MAX_FIELD_CHARS = 300
MAX_ACTION_CHARS = 1000


def one_line(text: str, limit: int = MAX_FIELD_CHARS) -> str:
    """``text`` on a single line (str.split() also splits on \\u2028, \\x1c and friends)."""
    folded = " ".join(str(text).split())
    return folded if len(folded) <= limit else folded[: limit - 3] + "..."


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _fixed(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, never "-0.00"."""
    return f"{round(float(value), digits) + 0.0:.{digits}f}"


def describe_action(tool_name: str, arguments: Mapping[str, Any]) -> str:
    """A tool call as ``name({"arg":"value"})``: compact JSON, ASCII only, one line, and cut
    with "..." past MAX_ACTION_CHARS (a customer message may be 4000 characters long)."""
    args = json.dumps(dict(arguments), separators=(",", ":"), ensure_ascii=True, default=str)
    return one_line(f"{tool_name or '<none>'}({args})", MAX_ACTION_CHARS)


def start_line(task: str, model: str) -> str:
    return f"[START] task={one_line(task)} env={ENV_NAME} model={one_line(model)}"


def step_line(step: int, action: str, reward: float, done: bool, error: str | None) -> str:
    shown_action = one_line(action, MAX_ACTION_CHARS) or "<none>"
    shown_error = "null" if error is None else one_line(error) or "error"
    return (
        f"[STEP] step={step} action={shown_action} reward={_fixed(reward, 2)} "
        f"done={_bool(done)} error={shown_error}"
    )


def end_line(success: bool, steps: int, score: float, rewards: Sequence[float]) -> str:
    shown = ",".join(_fixed(r, 2) for r in rewards)
    return f"[END] success={_bool(success)} steps={steps} score={_fixed(score, 3)} rewards={shown}"
