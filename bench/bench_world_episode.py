"""Benchmark: one fixture-world episode (tests/kernel/fixtures/retail_world) through the real
tools: look the order and payment up, authenticate, list the return, hear the yes, return two
items (6 steps, each write decided on what the agent knows and on the world).

The first run decides cold (the rule engine); the rest are memoised, as in training on a
fixed case. The world's cases come from tests/episode/world.py until issue 20 draws them.
Run: PYTHONPATH=. .venv/bin/python bench/bench_world_episode.py [runs]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from tests.episode.world import DELIVERED, play, world_episode, world_rules

LISTED = "I will return items I1 and I2 of order #W1, refunded to gift_card_1. Go ahead?"


def once() -> float:
    start = time.perf_counter()
    episode = world_episode(DELIVERED, ["Yes please go ahead."])
    play(episode, "lookup_order", order_id="#W1")
    play(episode, "check_payment", order_id="#W1")
    play(episode, "find_user", email="ada@example.com")
    play(episode, "respond_to_customer", message=LISTED)
    ids = ["I1", "I2"]
    done = play(
        episode,
        "return_delivered_order_items",
        order_id="#W1",
        item_ids=ids,
        payment_method_id="gift_card_1",
    )
    assert done["ok"], done
    return (time.perf_counter() - start) * 1000


def main(runs: int = 200) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    world_rules()  # loading and compiling the rules is not the episode's
    first = once()
    samples = [once() for _ in range(runs)]
    p90 = statistics.quantiles(samples, n=10)[-1]
    print(f"world return episode, first (cold decisions)  {first:6.3f} ms")
    median = statistics.median(samples)
    print(f"world return episode, memoised   median {median:6.3f} ms  p90 {p90:6.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
