"""pass^k, mean and spread: checked against a brute-force count over all k-subsets."""

from __future__ import annotations

import itertools
import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from novamart.evaluation.stats import PASS_KS, pass_hat_k, passed, summarise


@given(st.lists(st.booleans(), min_size=1, max_size=9), st.integers(1, 4))
def test_pass_hat_k_is_the_share_of_k_subsets_that_all_pass(outcomes: list[bool], k: int) -> None:
    n, c = len(outcomes), sum(outcomes)
    if n < k:
        assert pass_hat_k(n, c, k) is None
        return
    subsets = list(itertools.combinations(outcomes, k))
    expected = sum(all(s) for s in subsets) / len(subsets)
    assert pass_hat_k(n, c, k) == pytest.approx(expected)


def test_pass_hat_k_values() -> None:
    assert [pass_hat_k(4, 2, k) for k in PASS_KS] == [0.5, pytest.approx(1 / 6), 0.0, 0.0]
    assert pass_hat_k(10, 10, 4) == 1.0
    with pytest.raises(ValueError, match="passes"):
        pass_hat_k(3, 4, 1)


def test_summary_of_scores() -> None:
    scores = [1.0, 0.8, 0.79, 0.0]
    summary = summarise(scores)
    assert summary.n == 4 and summary.passes == 2
    assert summary.mean == pytest.approx(statistics.fmean(scores))
    assert summary.std == pytest.approx(statistics.stdev(scores))
    assert summary.pass_hat[2] == pytest.approx(1 / math.comb(4, 2))
    assert passed(0.8) and not passed(0.7999)
    single = summarise([0.5])
    assert single.std == 0.0 and single.pass_hat[2] is None
    with pytest.raises(ValueError):
        summarise([])
