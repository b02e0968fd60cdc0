"""novamart.server.tally writes many observations at once as one ``observe`` call each would:
the same bucket for a value on a bound, above the last bound, between bounds; the same sum;
counters by their labels. Real prometheus-client registries, no server."""

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from novamart.server.tally import Tally

BUCKETS = (0.001, 0.01, 0.1, 1.0)
STEPS = [0.0005, 0.001, 0.001, 0.002, 0.01, 0.05, 0.1, 0.5, 1.0, 3.0, 0.0]
SCORES = [(("order", "resolved"), 0.5), (("order", "resolved"), 1.0), (("ticket", "limit"), 0.0)]


def _metrics() -> tuple[CollectorRegistry, tuple[Histogram, Counter, Counter, Histogram]]:
    registry = CollectorRegistry()
    return registry, (
        Histogram("steps", "s", buckets=BUCKETS, registry=registry),
        Counter("started", "s", ["task"], registry=registry),
        Counter("ended", "s", ["task", "termination"], registry=registry),
        Histogram("score", "s", ["task"], buckets=(0.0, 0.5, 1.0), registry=registry),
    )


def _exposition(registry: CollectorRegistry) -> list[str]:
    """The samples, without the creation times (which differ between the two registries)."""
    return [
        line for line in generate_latest(registry).decode().splitlines() if "_created" not in line
    ]


def test_a_flush_writes_what_observe_would_have() -> None:
    one_by_one, (steps, started, ended, score) = _metrics()
    for seconds in STEPS:
        steps.observe(seconds)
    for (task, termination), value in SCORES:
        started.labels(task).inc()
        ended.labels(task, termination).inc()
        score.labels(task).observe(value)

    tallied, metrics = _metrics()
    tally = Tally(*metrics)
    tally.steps(STEPS[:3])
    for (task, termination), value in SCORES:
        tally.episode_started(task)
        tally.episode_ended(task, termination, value, STEPS[3:] if task == "ticket" else [])
    assert "steps_count 0.0" in _exposition(tallied)  # nothing written before the flush
    tally.flush()
    assert _exposition(tallied) == _exposition(one_by_one)
    tally.flush()  # nothing new: nothing added
    assert _exposition(tallied) == _exposition(one_by_one)
