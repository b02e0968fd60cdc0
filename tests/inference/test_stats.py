"""pass^k over trials, the chance that k different cases all pass, mean and spread: checked
against brute-force counts over all k-subsets."""

from __future__ import annotations

import itertools
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from novamart.evaluation.stats import CASE_KS, pass_hat_k, passed, summarise


def share_all_pass(outcomes: list[bool], k: int) -> float:
    subsets = list(itertools.combinations(outcomes, k))
    return sum(all(s) for s in subsets) / len(subsets)


@given(st.lists(st.booleans(), min_size=1, max_size=9), st.integers(1, 4))
def test_pass_hat_k_is_the_share_of_k_subsets_that_all_pass(outcomes: list[bool], k: int) -> None:
    n, c = len(outcomes), sum(outcomes)
    if n < k:
        assert pass_hat_k(n, c, k) is None
        return
    assert pass_hat_k(n, c, k) == pytest.approx(share_all_pass(outcomes, k))


grids = st.integers(1, 5).flatmap(
    lambda trials: st.lists(
        st.lists(st.sampled_from([0.0, 0.5, 0.8, 1.0]), min_size=trials, max_size=trials),
        min_size=1,
        max_size=6,
    )
)


@given(grids)
def test_pass_hat_is_over_the_trials_of_each_case(scores: list[list[float]]) -> None:
    """tau-bench: per case, the share of k-subsets of its trials that all pass; the mean
    over cases. 'k cases': per trial, the share of k-subsets of cases that all pass."""
    summary = summarise(scores)
    trials = len(scores[0])
    assert (summary.cases, summary.trials, summary.n) == (len(scores), trials, len(scores) * trials)
    assert set(summary.pass_hat) == set(range(1, trials + 1))
    for k in range(1, trials + 1):
        expected = statistics.fmean(share_all_pass([passed(s) for s in c], k) for c in scores)
        assert summary.pass_hat[k] == pytest.approx(expected)
    for k in CASE_KS:
        if len(scores) < k:
            assert summary.all_of_k_cases[k] is None
            continue
        per_trial = [share_all_pass([passed(c[t]) for c in scores], k) for t in range(trials)]
        assert summary.all_of_k_cases[k] == pytest.approx(statistics.fmean(per_trial))


def test_a_consistent_agent_and_a_coin_flipper_differ_in_pass_hat_k() -> None:
    """Both pass half the episodes; only the one that repeats itself keeps pass^4 there."""
    consistent = summarise([[1.0] * 4, [0.0] * 4])
    flipper = summarise([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0]])
    assert consistent.pass_hat[1] == flipper.pass_hat[1] == 0.5
    assert consistent.pass_hat[4] == 0.5 and flipper.pass_hat[4] == 0.0
    # across cases the two look alike: on each trial one of the two cases passed
    assert consistent.all_of_k_cases[2] == flipper.all_of_k_cases[2] == 0.0


def test_summary_of_scores() -> None:
    scores = [[1.0], [0.8], [0.79], [0.0]]
    summary = summarise(scores)
    assert summary.n == 4 and summary.passes == 2 and summary.trials == 1
    assert summary.mean == pytest.approx(statistics.fmean(s[0] for s in scores))
    assert summary.std == pytest.approx(statistics.stdev(s[0] for s in scores))
    assert summary.pass_hat == {1: 0.5}
    assert summary.all_of_k_cases[2] == pytest.approx(1 / 6)
    assert passed(0.8) and not passed(0.7999)
    single = summarise([[0.5]])
    assert single.std == 0.0 and single.all_of_k_cases[2] is None
    with pytest.raises(ValueError, match="zero"):
        summarise([])
    with pytest.raises(ValueError, match="same number of trials"):
        summarise([[1.0, 1.0], [1.0]])
