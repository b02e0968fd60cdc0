"""Summary statistics of episode scores: mean, spread, pass^k over trials, and the chance
that k different cases all pass.

pass^k is tau-bench's: every case (a seed or a dataset row) is played K times (``--trials
K``); with c_i passes (score >= 0.8) among the K trials of case i, pass^k is the mean over
cases of C(c_i, k) / C(K, k), the unbiased estimate of the chance that k independent trials
of the same case *all* pass. It measures how consistent an agent is on one case, so it is
defined for k <= K only; pass^1 is the pass rate.

``all_of_k_cases`` is a different question, kept under its own name: the chance that k
*different* cases, each played once, all pass (C(c, k) / C(n, k) over the n cases of one
trial, averaged over the trials). It says how evenly an agent copes with the cases, not how
reliably it repeats itself.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from pydantic import BaseModel

PASS_THRESHOLD = 0.8
CASE_KS = (1, 2, 3, 4)
"""The k of all_of_k_cases that tables show."""


def passed(score: float) -> bool:
    return score >= PASS_THRESHOLD


def pass_hat_k(n: int, c: int, k: int) -> float | None:
    """Unbiased chance that k of ``n`` draws with ``c`` passes all pass (without replacement,
    C(c, k) / C(n, k)); None when n < k (not estimable)."""
    if not 0 <= c <= n:
        raise ValueError(f"passes c={c} must lie in [0, n={n}]")
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if n < k:
        return None
    return math.comb(c, k) / math.comb(n, k)


class ScoreSummary(BaseModel):
    """One (agent, task) cell: ``cases`` cases, each played ``trials`` times."""

    n: int
    """Episodes: cases x trials."""
    cases: int
    trials: int
    mean: float
    std: float
    """Sample standard deviation (n - 1 in the denominator); 0 for a single episode."""
    passes: int
    pass_hat: dict[int, float]
    """k -> pass^k over trials (tau-bench), for k = 1..trials."""
    all_of_k_cases: dict[int, float | None]
    """k -> the chance that k different cases all pass, for k in CASE_KS (None: fewer cases)."""


def summarise(scores_by_case: Sequence[Sequence[float]]) -> ScoreSummary:
    """Mean, spread, pass^k and all_of_k_cases of one cell; ``scores_by_case[i][t]`` is the
    score of trial t of case i. Every case must have the same number of trials."""
    if not scores_by_case or not scores_by_case[0]:
        raise ValueError("cannot summarise zero episodes")
    trials = len(scores_by_case[0])
    if any(len(case) != trials for case in scores_by_case):
        raise ValueError("every case must be played the same number of trials")
    cases = len(scores_by_case)
    scores = [score for case in scores_by_case for score in case]
    wins = [sum(passed(s) for s in case) for case in scores_by_case]
    per_trial = [sum(passed(case[t]) for case in scores_by_case) for t in range(trials)]
    pass_hat = {
        k: statistics.fmean(math.comb(c, k) / math.comb(trials, k) for c in wins)
        for k in range(1, trials + 1)
    }
    all_of_k: dict[int, float | None] = {}
    for k in CASE_KS:
        estimates = [pass_hat_k(cases, c, k) for c in per_trial]
        all_of_k[k] = None if cases < k else statistics.fmean(e or 0.0 for e in estimates)
    return ScoreSummary(
        n=len(scores),
        cases=cases,
        trials=trials,
        mean=statistics.fmean(scores),
        std=statistics.stdev(scores) if len(scores) > 1 else 0.0,
        passes=sum(wins),
        pass_hat=pass_hat,
        all_of_k_cases=all_of_k,
    )
