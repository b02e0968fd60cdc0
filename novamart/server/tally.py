"""What the step path counts for ``/metrics`` (step times, episodes started and ended, scores),
kept in the worker's memory and written to its metrics together by ``Tally.flush``: every
FLUSH_SECONDS, before each scrape, and when the worker stops (novamart.server.metrics).

In prometheus-client's multiprocess mode (a server of several workers) every write to a metric
is a locked write to a memory-mapped file; made from the step path (two for the step-latency
histogram, then an episode's counters and score) they cost 8-10 % of an in-process step
(bench/bench_metrics.py). Here a step costs appending its time to its session's list, an
episode one locked merge, and a flush writes each series that changed once, however many steps
and episodes it holds. Every step is still one observation of the histogram; a scrape of a
several-worker server sees the other workers' counts at most FLUSH_SECONDS late.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import Counter as Tallies
from collections.abc import Iterable

from prometheus_client import Counter, Histogram

FLUSH_SECONDS = 1.0


class Observations:
    """Observations of one histogram not written yet: a count per bucket and their sum."""

    def __init__(self, bounds: list[float]) -> None:
        self._bounds = bounds
        self.counts = [0] * len(bounds)
        self.sum = 0.0

    def add(self, value: float) -> None:
        """One observation (its bucket: the first bound at or above it, as ``observe`` picks)."""
        self.counts[bisect_left(self._bounds, value)] += 1
        self.sum += value

    def write(self, histogram: Histogram) -> None:
        """Add them to ``histogram`` as that many ``observe`` calls would. prometheus-client
        has no public call for many observations at once, so this adds to the histogram's
        bucket and sum values (tests/server/test_metrics.py checks what a scrape reads)."""
        for bucket, count in enumerate(self.counts):
            if count:
                histogram._buckets[bucket].inc(count)
        histogram._sum.inc(self.sum)


class _Unwritten:
    """Everything counted since the last flush."""

    def __init__(self, step_bounds: list[float]) -> None:
        self.steps = Observations(step_bounds)
        self.started: Tallies[str] = Tallies()
        self.ended: Tallies[tuple[str, str]] = Tallies()
        self.scores: dict[str, Observations] = {}


class Tally:
    """The step path's counts for ``step_seconds``, ``started`` (by task), ``ended`` (by task
    and termination) and ``score`` (by task), until ``flush`` writes them."""

    def __init__(
        self, step_seconds: Histogram, started: Counter, ended: Counter, score: Histogram
    ) -> None:
        self._step_seconds = step_seconds
        self._started = started
        self._ended = ended
        self._score = score
        self._step_bounds = step_seconds._upper_bounds
        self._score_bounds = score._upper_bounds
        self._lock = threading.Lock()  # the HTTP routes' threads and the event loop's
        self._unwritten = _Unwritten(self._step_bounds)

    def steps(self, seconds: Iterable[float]) -> None:
        """Steps that took ``seconds`` each."""
        with self._lock:
            for each in seconds:
                self._unwritten.steps.add(each)

    def episode_started(self, task: str) -> None:
        with self._lock:
            self._unwritten.started[task] += 1

    def episode_ended(
        self, task: str, termination: str, score: float, steps: Iterable[float]
    ) -> None:
        """An episode of ``task`` ended by ``termination`` with ``score``, and its ``steps``."""
        with self._lock:
            unwritten = self._unwritten
            for each in steps:
                unwritten.steps.add(each)
            unwritten.ended[task, termination] += 1
            scores = unwritten.scores.get(task)
            if scores is None:
                scores = unwritten.scores[task] = Observations(self._score_bounds)
            scores.add(score)

    def flush(self) -> None:
        """Write what was counted since the last flush (held under the lock: a scrape that
        follows a flush under way reads all of it)."""
        with self._lock:
            unwritten, self._unwritten = self._unwritten, _Unwritten(self._step_bounds)
            if any(unwritten.steps.counts):
                unwritten.steps.write(self._step_seconds)
            for task, count in unwritten.started.items():
                self._started.labels(task).inc(count)
            for (task, termination), count in unwritten.ended.items():
                self._ended.labels(task, termination).inc(count)
            for task, scores in unwritten.scores.items():
                scores.write(self._score.labels(task))
