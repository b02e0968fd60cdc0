"""Benchmark PolicyKernel.decide() against the targets of issue 2 (a script, not a test).

- cold: median time of decide() on fact sets it has never seen, the memo of engine runs
  emptied before each (a new engine session each);
- new facts, shared run: the same on fact sets whose test outcomes the engine has seen (ids,
  days and prices differ), as most of an episode's decisions are;
- memoised: median time of decide() on a fact set it has already decided (the same object,
  and an equal copy, as when each request validates its facts anew);
- memory: resident set size before and after 10,000 cold decisions, through decide() (the
  memo keeps every decision) and through the unmemoised path (the engine alone);
- the richer language (issue 19): a 5-item order decided item by item under a 20-policy
  rulebook of collections, quantifiers and expressions (150 tests read the item kind), cold
  (new facts, engine runs forgotten) and memoised, beside today's single-item decision in the
  same run. Targets: <= 5 ms cold, <= 50 µs memoised;
- a plan over 3 requests (tests/kernel/fixtures/retail_world: a modification, a second one
  the first rules out, a cancellation), decided in order with effects between the calls, cold;
  and the best plan of the same 3 requests (every order searched). Target: <= 20 ms.

Run: .venv/bin/python bench/bench_kernel.py [--calls N] [--decisions N] [--language-only]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import yaml

from novamart.kernel import Decision, Facts, PolicyKernel
from novamart.kernel.decide import ENGINE_RUNS, MEMO_SIZE, forget_decisions
from novamart.kernel.declared import Call, Request
from novamart.kernel.items import decide_each
from novamart.kernel.plans import best_plan
from novamart.kernel.requests import decide_plan

TARGET_COLD_MS = 1.0
TARGET_MEMO_US = 20.0
TARGET_RSS_GROWTH_PCT = 5.0
TARGET_ITEMS_COLD_MS = 5.0
TARGET_ITEMS_MEMO_US = 50.0
WARMUP = 200
ITEMS_FIXTURE = (
    Path(__file__).resolve().parents[1] / "tests" / "kernel" / "fixtures" / "retail_items"
)
WORLD_FIXTURE = ITEMS_FIXTURE.parent / "retail_world"
TARGET_PLAN_COLD_MS = 20.0
CPU = time.thread_time
GENERATED_POLICIES = 16  # beside the fixture's 4 (and its fallback): 20 policies


def typical(i: int) -> Facts:
    """A typical case with every fact revealed; ``i`` makes the fact set new."""
    order_id = f"ORD-{i}"
    return Facts(
        order=dict(
            order_id=order_id,
            days_since_purchase=20 + i % 60,
            opened=i % 2 == 0,
            price=round(49.99 + i * 0.01, 2),
            category="earbuds",
        ),
        customer=dict(customer_id=f"CUST-{i % 500}", tier=("silver", "gold")[i % 2]),
        defect_check=dict(order_id=order_id, verified=i % 3 == 0),
    )


def timed(
    decide: Callable[[Facts], object],
    facts: list[Facts],
    cold: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """Seconds per call, one clock reading around each call; ``cold``: every memo the kernel
    keeps between decisions emptied before each (outside the clock): the engine runs, the
    rendered reasons, the shared condition results and the decimals read. ``clock=
    time.thread_time`` counts the CPU this thread spent, which the other processes of a loaded
    machine do not inflate."""
    times = []
    for f in facts:
        if cold:
            forget_decisions()
        start = clock()
        decide(f)
        times.append(clock() - start)
    return times


def rss_growth(
    decide: Callable[[Facts], Decision], first: int, count: int, cold: bool = False
) -> tuple[float, float]:
    """RSS (MB) before and after ``count`` new decisions (facts built inside the loop);
    ``cold``: each a run of the engine."""
    process = psutil.Process()
    gc.collect()
    before = process.memory_info().rss
    for i in range(first, first + count):
        if cold:
            ENGINE_RUNS.clear()
        decide(typical(i))
    gc.collect()
    return before / 1e6, process.memory_info().rss / 1e6


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def twenty_policies(target: Path) -> Path:
    """The retail_items fixture plus 16 per-item policies of 9 conditions each (plain tests,
    relations, arithmetic, quantifiers): 20 policies, 150 tests reading the item kind."""
    shutil.copytree(ITEMS_FIXTURE, target)
    for p in range(GENERATED_POLICIES):
        conditions = [
            ("delivered", "order.status == delivered"),
            ("asked", "item.requested == return"),
            ("cheap_enough", f"item.price <= {200 + p}"),
            ("not_free", f"item.price > {p % 3}"),
            ("unopened_or_cheap", f"not item.opened or item.price < {20 + p}"),
            ("not_final_sale", "item.final_sale == false"),
            ("below_variant", f"item.new_price - item.price <= {50 + p}"),
            ("order_small", f"count(item) <= {10 + p}"),
            ("order_total", f"sum(item.price where item.requested == return) <= {1000 + p}"),
        ]
        policy = {
            "policy": f"generated_{p:02d}",
            "clause": "A generated policy for the benchmark.",
            "for_each": "item",
            "conditions": [{"name": n, "test": t, "reason": "{failed}"} for n, t in conditions],
            "grants": [{"resolution": "store_credit", "amount": f"item.price * {p + 1}%"}],
        }
        (target / f"generated_{p:02d}.yaml").write_text(yaml.safe_dump(policy, sort_keys=False))
    return target


def five_items(i: int) -> Facts:
    """A delivered order of five items, three asked back; ``i`` makes the fact set new."""
    order_id = f"#W{i}"
    members = [
        {
            "item_id": f"I{n}",
            "order_id": order_id,
            "price": round(10 + n * 17.5 + (i % 97) * 0.01, 2),
            "new_price": round(15 + n * 17.5, 2),
            "opened": (i + n) % 3 == 0,
            "requested": "return" if n < 3 else "none",
        }
        for n in range(5)
    ]
    return Facts(
        order={"order_id": order_id, "status": "delivered"},
        item=members,
        payment={"payment_id": "gift_card_1", "method": "gift_card", "balance": 100.0},
        ticket={"ticket_id": order_id, "request": "return"},
    )


def pending_order(i: int) -> Facts:
    """A pending order of three items paid by gift card, the customer known and agreeing;
    ``i`` makes the fact set new."""
    members = [
        {
            "item_id": f"P{n}",
            "order_id": "#W2",
            "price": round(40 + n * 10 + (i % 997) * 0.01, 2),
            "new_price": round(45 + n * 10, 2),
            "status": "ordered",
        }
        for n in range(3)
    ]
    return Facts(
        order={"order_id": "#W2", "status": "pending"},
        item=members,
        payment={"payment_id": "gift_card_2", "method": "gift_card", "balance": 100.0},
        event={"event_id": "conversation", "identity_verified": True, "confirmed": True},
    )


def three_requests() -> list:
    """Modify one item, modify another (once per order: declined), cancel (declined too),
    the customer saying yes before each."""
    card = {"order_id": "#W2", "payment_method_id": "gift_card_2"}
    return [
        Call(resolution="modify_items", arguments={**card, "item_ids": ["P0"]}),
        "confirmed",
        Call(resolution="modify_items", arguments={**card, "item_ids": ["P1"]}),
        "confirmed",
        Call(resolution="cancel_order", arguments={"order_id": "#W2", "reason": "other"}),
    ]


def plan_rows(calls: int) -> list[tuple[str, float, float | None, str]]:
    """A plan over three requests, cold: new facts, engine runs forgotten before each."""
    world = PolicyKernel(WORLD_FIXTURE)
    steps = three_requests()
    for i in range(WARMUP // 10):
        decide_plan(world, pending_order(-1 - i), steps)
    plan = lambda facts: decide_plan(world, facts, steps)  # noqa: E731
    cold = timed(plan, [pending_order(i) for i in range(calls // 10)], cold=True)
    asked = [Request(resolutions=(c.resolution,), arguments=c.arguments) for c in steps[::2]]
    best = lambda facts: best_plan(world, facts, asked, ["confirmed"])  # noqa: E731
    searched = timed(best, [pending_order(i) for i in range(calls // 10)], cold=True)
    return [
        (label, statistics.median(times) * 1e3, TARGET_PLAN_COLD_MS, "ms")
        for label, times in (
            ("plan over 3 requests, cold, median", cold),
            ("best plan of 3 requests (6 orders), cold, median", searched),
        )
    ]


def language_rows(calls: int) -> list[tuple[str, float, float | None, str]]:
    """(measure, value, target, unit): today's single-item decision and the 5-item order
    under 20 policies, cold and memoised, in one run."""
    reference = PolicyKernel()
    for i in range(WARMUP):
        reference.decide(typical(-1 - i))
    with tempfile.TemporaryDirectory() as tmp:
        items = PolicyKernel(twenty_policies(Path(tmp) / "rules"))
    tests = sum(len(p.conditions) for p in items.rulebook.policies.values())
    each = lambda facts: decide_each(items, facts, "item")  # noqa: E731
    for i in range(WARMUP // 10):
        each(five_items(-1 - i))
    single_cold = timed(reference.decide, [typical(i) for i in range(calls)], cold=True)
    single_memo = timed(reference.decide, [typical(0)] * calls)
    order_facts = [five_items(i) for i in range(calls // 10)]
    order_cold = timed(each, order_facts, cold=True)
    single_cpu = timed(reference.decide, [typical(calls + i) for i in range(calls)], True, CPU)
    order_cpu = timed(each, [five_items(10**6 + i) for i in range(calls // 10)], True, CPU)
    order_memo = timed(each, [order_facts[0]] * calls)
    print(
        f"language  {len(items.rulebook.policies)} policies, {tests} conditions "
        f"(rules version {items.version}); 5-item orders decided item by item"
    )
    return [
        ("single-item decide(), cold, median", statistics.median(single_cold) * 1e3, None, "ms"),
        (
            "single-item decide(), memoised, median",
            statistics.median(single_memo) * 1e6,
            None,
            "µs",
        ),
        (
            "5-item order, 20 policies, cold, median",
            statistics.median(order_cold) * 1e3,
            TARGET_ITEMS_COLD_MS,
            "ms",
        ),
        (
            "single-item decide(), cold, CPU time, median",
            statistics.median(single_cpu) * 1e3,
            None,
            "ms",
        ),
        (
            "5-item order, 20 policies, cold, CPU time, median",
            statistics.median(order_cpu) * 1e3,
            TARGET_ITEMS_COLD_MS,
            "ms",
        ),
        (
            "5-item order, 20 policies, memoised, median",
            statistics.median(order_memo) * 1e6,
            TARGET_ITEMS_MEMO_US,
            "µs",
        ),
    ]


def print_language(calls: int) -> None:
    print(f"{'measure':<46} {'result':<14} {'target':<10} verdict  vs single-item cold")
    rows = language_rows(calls) + plan_rows(calls)
    reference = rows[0][1]  # single-item decide(), cold, in ms: the same run's yardstick
    cpu_reference = next(
        v for label, v, _, _ in rows if label.startswith("single-item") and "CPU" in label
    )
    for label, value, limit, unit in rows:
        target = "" if limit is None else f"<= {limit:g} {unit}"
        mark = "" if limit is None else verdict(value <= limit)
        base = cpu_reference if "CPU" in label else reference  # CPU time against CPU time
        ratio = f"{value / base:.1f}x" if unit == "ms" else ""
        print(f"{label:<46} {value:>9.3f} {unit:<4} {target:<10} {mark:<8} {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="timed calls (>= 1000)")
    parser.add_argument("--decisions", type=int, default=10_000, help="decisions for the RSS run")
    parser.add_argument(
        "--language-only", action="store_true", help="only the rows of the richer language"
    )
    args = parser.parse_args()
    if args.language_only:
        print(f"load avg  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print_language(args.calls)
        return

    kernel = PolicyKernel()
    for i in range(WARMUP):
        kernel.decide(typical(-1 - i))

    cold_facts = [typical(i) for i in range(args.calls)]
    cold = timed(kernel.decide, cold_facts, cold=True)
    shared = timed(kernel.decide, [typical(i) for i in range(args.calls, 2 * args.calls)])
    memo = timed(kernel.decide, [cold_facts[0]] * args.calls)
    memo_copy = timed(kernel.decide, [typical(0) for _ in range(args.calls)])
    del cold_facts

    # The unmemoised path shows the engine alone; the memoised one is measured once its
    # bounded memo (MEMO_SIZE decisions) is full, so growth there would be a leak.
    fresh = PolicyKernel()
    fresh.decide(typical(-1))
    engine_mb = rss_growth(fresh.snapshot().decide.__wrapped__, 10**6, args.decisions, cold=True)
    fill_mb = rss_growth(fresh.decide, 2 * 10**6, MEMO_SIZE)
    memo_mb = rss_growth(fresh.decide, 3 * 10**6, args.decisions)

    cold_ms = statistics.median(cold) * 1e3
    cold_p95_ms = statistics.quantiles(cold, n=20)[-1] * 1e3
    shared_ms = statistics.median(shared) * 1e3
    memo_us = statistics.median(memo) * 1e6
    memo_copy_us = statistics.median(memo_copy) * 1e6

    def growth(mb: tuple[float, float]) -> float:
        return (mb[1] - mb[0]) / mb[0] * 100

    print(f"machine   {platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs")
    print(f"python    {sys.version.split()[0]} ({platform.python_implementation()})")
    print(f"load avg  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"rulebook  {kernel.version}; {args.calls} timed calls; warm-up {WARMUP}")
    print()
    rows = [
        ("decide() cold, median", f"{cold_ms:.3f} ms", f"<= {TARGET_COLD_MS} ms", cold_ms),
        ("decide() cold, p95", f"{cold_p95_ms:.3f} ms", "", None),
        ("decide() new facts, shared run, median", f"{shared_ms:.3f} ms", "", None),
        ("decide() memoised, median", f"{memo_us:.2f} µs", f"<= {TARGET_MEMO_US} µs", memo_us),
        (
            "decide() memoised, equal copy, median",
            f"{memo_copy_us:.2f} µs",
            f"<= {TARGET_MEMO_US} µs",
            memo_copy_us,
        ),
    ]
    for label, mb in (("engine only", engine_mb), ("decide(), memo full", memo_mb)):
        rows.append(
            (
                f"RSS over {args.decisions:,} cold, {label}",
                f"{mb[0]:.1f} -> {mb[1]:.1f} MB ({growth(mb):+.1f} %)",
                f"< {TARGET_RSS_GROWTH_PCT} %",
                growth(mb),
            )
        )
    limits = [TARGET_COLD_MS, None, None, TARGET_MEMO_US, TARGET_MEMO_US]
    limits += [TARGET_RSS_GROWTH_PCT] * 2
    print(f"{'measure':<40} {'result':<30} {'target':<10} verdict")
    for (label, result, target, value), limit in zip(rows, limits, strict=True):
        mark = "" if limit is None else verdict(value <= limit)
        print(f"{label:<40} {result:<30} {target:<10} {mark}")
    print(
        f"\nfilling the memo ({MEMO_SIZE:,} decisions): {fill_mb[0]:.1f} -> {fill_mb[1]:.1f} MB "
        f"(~{(fill_mb[1] - fill_mb[0]) / MEMO_SIZE * 1e3:.1f} KB a decision); it stays that size"
    )
    print()
    print_language(args.calls)


if __name__ == "__main__":
    main()
