"""Summary statistics of episode scores: mean, spread and pass^k.

pass^k is the chance that k independent episodes of a task *all* pass (score >= 0.8). From
n episodes with c passes, C(c, k) / C(n, k) estimates it without bias (tau-bench's
estimator); pass^1 is the pass rate. It rewards agents that are reliable, not just lucky.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from pydantic import BaseModel

PASS_THRESHOLD = 0.8
PASS_KS = (1, 2, 3, 4)


def passed(score: float) -> bool:
    return score >= PASS_THRESHOLD


def pass_hat_k(n: int, c: int, k: int) -> float | None:
    """Unbiased pass^k from ``c`` passes in ``n`` episodes; None when n < k (not estimable)."""
    if not 0 <= c <= n:
        raise ValueError(f"passes c={c} must lie in [0, n={n}]")
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if n < k:
        return None
    return math.comb(c, k) / math.comb(n, k)


class ScoreSummary(BaseModel):
    """One (agent, task) cell: n episodes summarised."""

    n: int
    mean: float
    std: float
    """Sample standard deviation (n - 1 in the denominator); 0 for a single episode."""
    passes: int
    pass_hat: dict[int, float | None]
    """k -> pass^k for k in PASS_KS."""


def summarise(scores: Sequence[float]) -> ScoreSummary:
    """Mean, sample std, pass count and pass^1..4 of one cell's episode scores."""
    if not scores:
        raise ValueError("cannot summarise zero episodes")
    n = len(scores)
    c = sum(passed(s) for s in scores)
    return ScoreSummary(
        n=n,
        mean=statistics.fmean(scores),
        std=statistics.stdev(scores) if n > 1 else 0.0,
        passes=c,
        pass_hat={k: pass_hat_k(n, c, k) for k in PASS_KS},
    )
