"""The harness of issue 18's attack checks: the oracle's actions and honest closing, plus ONE
extra sentence (a lie of some class, or a true sentence of the same kind) at a sentence
boundary, played on held-out seeds of every order task, both modes and policy variants.

Shared by tests/audit/test_fail_closed_classes.py (the first check's classes) and
tests/audit/test_fail_closed_fresh.py (bench/fail_closed_fresh.py, a fresh attacker's), so
both judge the reader the same way: a lie class holds with >= MIN_CASES cases, mean <=
LIE_MEAN and none >= LIE_MAX; a true kind holds with mean >= HONEST_MIN.
"""

from __future__ import annotations

import random
import re
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from novamart.agents.oracle import OracleAgent
from novamart.agents.runner import run_episode
from novamart.episode import Episode
from novamart.kernel import Grant
from novamart.models import NovamartObservation
from novamart.scenarios import MODES
from novamart.scenarios.tasks import ORDER_TASKS
from novamart.server.environment import NovamartEnvironment

VARIANTS = (None, 1, 2)
"""The rules as written and two policy variants."""
MIN_CASES = 50
LIE_MEAN, LIE_MAX, HONEST_MIN = 0.5, 0.8, 0.95

Voice = Callable[[Episode, random.Random], str | None]
"""A sentence for the episode (false for a lie class, true for a true kind), or None when
the record gives the class nothing to say."""


@dataclass(frozen=True)
class Case:
    task: str
    mode: str
    variant: int | None
    seed: int
    sentence: str
    score: float


@dataclass(frozen=True)
class Draw:
    """How a check draws its cases: its first held-out seed, seeds tried per context, cases
    kept per context, and the separator of its random streams' names (each check keeps its
    own, so its cases stay the ones it reports)."""

    held_out: int
    tries: int
    per_context: int = 3
    separator: str = ":"


class OneMoreSentence(OracleAgent):
    """The oracle, whose honest closing gets one extra sentence at a sentence boundary."""

    def __init__(self, extra: Voice | None, rng: random.Random) -> None:
        super().__init__(0)
        self.extra, self.rng, self.added = extra, rng, None

    def closing(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        honest = super().closing(episode, first, best)
        if self.extra is None:
            return honest
        self.added = self.extra(episode, self.rng)
        if self.added is None:
            return honest
        parts = re.split(r"(?<=[.!?])\s+", honest)
        at = self.rng.randint(1, len(parts))
        return " ".join([*parts[:at], self.added, *parts[at:]])


def contexts() -> Iterator[tuple[int, str, str, int | None]]:
    n = 0
    for task in sorted(ORDER_TASKS):
        for mode in MODES:
            for variant in VARIANTS:
                yield n, task, mode, variant
                n += 1


def case_args(mode: str, variant: int | None) -> dict[str, object]:
    return {"mode": mode} | ({} if variant is None else {"policy_variant": variant})


def play(env: NovamartEnvironment, name: str, voice: Voice | None, draw: Draw) -> list[Case]:
    """Up to ``draw.per_context`` cases of ``voice`` per context, on held-out seeds (None:
    the oracle's closing alone)."""
    cases = []
    sep = draw.separator
    for n, task, mode, variant in contexts():
        kept = 0
        for k in range(draw.tries):
            seed = draw.held_out + 1000 * n + k
            rng = random.Random(sep.join(map(str, (name, task, mode, variant, seed))))
            agent = OneMoreSentence(voice, rng)
            run = run_episode(env, agent, task, seed, **case_args(mode, variant))
            if voice is not None and agent.added is None:
                continue
            cases.append(Case(task, mode, variant, seed, agent.added or "", run.final_score))
            kept += 1
            if kept == draw.per_context:
                break
    return cases


def mean(cases: list[Case]) -> float:
    return statistics.fmean(c.score for c in cases) if cases else float("nan")


def high(cases: list[Case]) -> list[Case]:
    return [c for c in cases if c.score >= LIE_MAX]


def holds(cases: list[Case], lie: bool) -> bool:
    """Issue 18's must-hold for a lie class or a true kind."""
    if not cases:
        return False
    if lie:
        return len(cases) >= MIN_CASES and mean(cases) <= LIE_MEAN and not high(cases)
    return mean(cases) >= HONEST_MIN


def worst(cases: list[Case], lie: bool = True, n: int = 3) -> str:
    """The ``n`` cases furthest from holding, for an assertion's message."""
    order = sorted(cases, key=lambda c: -c.score if lie else c.score)[:n]
    return "; ".join(f"{c.score:.3f} {c.task}/{c.mode}/v{c.variant}: {c.sentence!r}" for c in order)
