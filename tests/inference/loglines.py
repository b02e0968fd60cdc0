"""A strict reader of inference.py's stdout: every line must be one of the three formats,
and episodes must be well-formed (START, STEP 1..n, END with matching steps and rewards)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

REWARD = r"-?\d+\.\d{2}"
START = re.compile(r"\[START\] task=(?P<task>[a-z0-9_]+) env=novamart model=(?P<model>\S+)")
STEP = re.compile(
    rf"\[STEP\] step=(?P<step>[1-9]\d*) action=(?P<action>\S.*?) reward=(?P<reward>{REWARD}) "
    r"done=(?P<done>true|false) error=(?P<error>null|\S.*)"
)
END = re.compile(
    r"\[END\] success=(?P<success>true|false) steps=(?P<steps>0|[1-9]\d*) "
    rf"score=(?P<score>[01]\.\d{{3}}) rewards=(?P<rewards>(?:{REWARD}(?:,{REWARD})*)?)"
)
ACTION = re.compile(r"(?P<tool>[^()]*)\((?P<arguments>\{.*\})\)")
CUT_ACTION = re.compile(r"(?P<tool>[^()]*)\(\{.*\.\.\.")


@dataclass
class Step:
    number: int
    tool: str
    arguments: dict | None
    """None when the logged action was cut short."""
    reward: str
    done: bool
    error: str | None


@dataclass
class Episode:
    task: str
    model: str
    steps: list[Step] = field(default_factory=list)
    success: bool = False
    score: float = 0.0
    rewards: list[str] = field(default_factory=list)


def parse(stdout: str) -> list[Episode]:
    """The episodes in ``stdout``; AssertionError on any line or structure out of format."""
    episodes: list[Episode] = []
    current: Episode | None = None
    assert stdout.endswith("\n"), "output must end with a newline"
    for line in stdout.splitlines():
        if match := START.fullmatch(line):
            assert current is None, f"[START] inside an episode: {line!r}"
            current = Episode(task=match["task"], model=match["model"])
        elif match := STEP.fullmatch(line):
            assert current is not None, f"[STEP] outside an episode: {line!r}"
            assert int(match["step"]) == len(current.steps) + 1, f"step out of order: {line!r}"
            action = ACTION.fullmatch(match["action"])
            cut = None if action else CUT_ACTION.fullmatch(match["action"])
            assert action or cut, f"action not tool(json): {match['action']!r}"
            current.steps.append(
                Step(
                    number=int(match["step"]),
                    tool=(action or cut)["tool"],
                    arguments=json.loads(action["arguments"]) if action else None,
                    reward=match["reward"],
                    done=match["done"] == "true",
                    error=None if match["error"] == "null" else match["error"],
                )
            )
        elif match := END.fullmatch(line):
            assert current is not None, f"[END] outside an episode: {line!r}"
            assert int(match["steps"]) == len(current.steps)
            current.rewards = match["rewards"].split(",") if match["rewards"] else []
            assert current.rewards == [s.reward for s in current.steps]
            current.success = match["success"] == "true"
            current.score = float(match["score"])
            assert not current.success or current.score >= 0.8
            assert not current.success or current.steps[-1].done
            assert all(not s.done for s in current.steps[:-1]), "a step after done"
            episodes.append(current)
            current = None
        else:
            raise AssertionError(f"line out of format: {line!r}")
    assert current is None, "the last episode has no [END]"
    return episodes
