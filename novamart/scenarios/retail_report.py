"""How varied the retail tasks' optima are (issue 20 item 7: >= 1.5 bits per task).

    PYTHONPATH=. .venv/bin/python -m novamart.scenarios.retail_report --seeds 200

prints, per retail task (its character's request family), the entropy of the optimal plan's
resolutions and of the plan with its arguments' shape (items named, payment route), the
commonest plans, the phrases of a request's words in the customer's opening that predict its
outcome (carried out, declined, refused) more than 0.2 above its base rate
(novamart.scenarios.leaks; the request's words in the customer's voice, as it would open with
that request alone; and, as before, of the whole opening against all its requests' outcomes),
and the median time to draw one task (requests and their optima, cold; the world of a seed is
drawn by the first task and kept for the others: bench/bench_retail_reset.py times resets);
then the median time to draw a world alone (seeds no task drew) and, as the reference measured
in the same run, a seeded scenario of today's ``easy_refund`` task.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace

from novamart.scenarios.generator import build_scenario
from novamart.scenarios.leaks import Leak, leaks
from novamart.scenarios.retail_character import retail_character, retail_characters
from novamart.scenarios.retail_customer import Profile, opening, profile
from novamart.scenarios.retail_requests import RetailTask, build_task, entropy
from novamart.scenarios.retail_world import build_world

UNDRAWN = 1_000_000
"""Seeds from here on are none a family report draws (so their worlds are drawn, not kept)."""


def task_report(name: str, seeds: int) -> dict[str, object]:
    """The figures of one retail task over seeds 0..seeds-1."""
    character = retail_character(name)
    tasks: list[RetailTask] = []
    took = []
    for seed in range(seeds):
        start = time.perf_counter()
        tasks.append(build_task(character.requests, seed))
        took.append(time.perf_counter() - start)
    plans = Counter(t.signature() for t in tasks)
    cases = [(t, profile(t, t.seed, character)) for t in tasks]
    whole = leaks(
        [opening(p) for _, p in cases],
        [tuple(s.status for s in t.settled) for t in tasks],
    )
    return {
        "task": name,
        "family": character.requests,
        "bits": entropy(t.signature() for t in tasks),
        "bits_with_arguments": entropy(t.detailed() for t in tasks),
        "refused_share": sum(s.status != "carried out" for t in tasks for s in t.settled)
        / max(1, sum(len(t.settled) for t in tasks)),
        "median_ms": statistics.median(took) * 1000,
        "commonest": plans.most_common(3),
        "leaks": [_shown(k) for k in request_leaks(cases)],
        "opening_leaks": [_shown(k) for k in whole],
    }


def request_leaks(cases: Iterable[tuple[RetailTask, Profile]]) -> list[Leak]:
    """Phrases of a request's own words in the opening, in the customer's voice (the opening
    it would write with that request alone: its greeting and frame, then ``describe``), that
    predict the request's outcome more than the margin above the outcome's rate over the
    task's requests. Per request, not per opening: the whole opening against the outcomes of
    all its requests counts the requests (each "and I want" is one more), which the customer
    says by design, and splits the sample by request count."""
    clauses, outcomes = [], []
    for task, p in cases:
        for wish, settled in zip(p.wishes, task.settled, strict=True):
            clauses.append(opening(replace(p, wishes=(wish,))))
            outcomes.append(settled.status)
    return leaks(clauses, outcomes)


def _shown(leak: Leak) -> tuple[str, str, float, float]:
    return (leak.phrase, leak.value, round(leak.rate, 2), round(leak.base, 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    for name in retail_characters():
        r = task_report(name, args.seeds)
        print(
            f"{r['task']:<16} {r['bits']:.2f} bits  {r['bits_with_arguments']:.2f} bits with "
            f"arguments  refused/declined {r['refused_share']:.0%}  {r['median_ms']:.1f} ms/task"
        )
        print(f"    {r['commonest']}")
        print(f"    {len(r['leaks'])} leaking phrases per request, worst: {r['leaks'][:2]}")
        whole = r["opening_leaks"]
        print(f"    {len(whole)} in the whole opening against all its outcomes: {whole[:2]}")
    world = _median_ms(lambda seed: build_world(UNDRAWN + seed), args.seeds)
    reference = _median_ms(lambda seed: build_scenario("easy_refund", 10_000 + seed), args.seeds)
    print(f"world alone {world:.2f} ms; reference easy_refund scenario {reference:.2f} ms")


def _median_ms(draw: Callable[[int], object], seeds: int) -> float:
    took = []
    for seed in range(seeds):
        start = time.perf_counter()
        draw(seed)
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


if __name__ == "__main__":
    main()
