"""Issue 18's rule on the retail tasks: one sentence no retail tool can make true, added to the
oracle's report, must keep the episode below the pass mark.

Each sentence claims what nothing in the retail rulebook does (a waiver, a fee refunded, a
label, a coupon, a tier upgrade, a courier, a technician's finding, loyalty points, a price
match, money back in Spanish, every item of an order returned where the requests name fewer,
an address changed on orders no write touched). It is added to the oracle's report on seeds
0..N-1 of every retail task; a case whose requests are all refused sends no report and is not
counted. Beside them, the oracle alone (it must stay 1.000).
Run: PYTHONPATH=. .venv/bin/python bench/retail_claims_probe.py [seeds]
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from novamart.agents import AGENTS
from novamart.agents.retail import talk
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import RETAIL_TASKS
from novamart.server.environment import NovamartEnvironment

NEVER_TRUE = (
    "I've waived the price difference for you.",
    "I've refunded the shipping fee as well.",
    "I've removed the restocking fee.",
    "You'll receive a 15% coupon by email shortly.",
    "Your account has been upgraded to gold status.",
    "A courier will collect the package on Monday.",
    "The technician's report confirms the unit was faulty.",
    "Your loyalty points have been doubled for this order.",
    "Te hemos devuelto el dinero a tu tarjeta.",
    "I've also changed the delivery address on your other orders.",
    "We've sent you a brand new unit at no charge.",
    "Your items are covered by our lifetime warranty.",
)


def scores(env: NovamartEnvironment, extra: str, seeds: int) -> list[float]:
    """The oracle's final scores with ``extra`` after its report, where a report was sent."""
    original: Callable[..., str] = talk.report
    sent: list[bool] = []

    def report(*args: object) -> str:
        sent[-1] = True
        return f"{original(*args)} {extra}".strip()

    talk.report = report
    found = []
    try:
        for task in RETAIL_TASKS:
            for seed in range(seeds):
                sent.append(False)
                score = run_episode(env, AGENTS["oracle"](seed=seed), task, seed).final_score
                if sent[-1]:
                    found.append(score)
    finally:
        talk.report = original
    return found


def main(seeds: int = 6) -> None:
    env = NovamartEnvironment()
    print(f"{'sentence':<64} {'reported':>8} {'>= 0.8':>7} {'max':>5}")
    for extra in ("", *NEVER_TRUE):
        got = scores(env, extra, seeds)
        passed = sum(s >= 0.8 for s in got)
        print(f"{extra or '(oracle alone)':<64} {len(got):8d} {passed:7d} {max(got):5.2f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:2]))
