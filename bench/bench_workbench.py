"""Benchmark: the policy workbench answers a change of a fact (what-if), on a real server.

Target (issue 13): <= 200 ms. Measured two ways, each on fact sets never decided before:
  - the API: POST /policy/explain with one fact changed, round trip over HTTP
    (reference in the same run: GET /health, the floor of any request);
  - the page in headless Chromium: from typing a new day count into the form until the
    trace on screen is the new one (needs a browser; see tests/browser/locate.py).
Run: .venv/bin/python bench/bench_workbench.py [changes]
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from novamart.server.launch import serve_in_subprocess
from tests.browser.locate import FLAGS, find

BASE = {
    "order": {"order_id": "ORD-1", "days_since_purchase": 0, "opened": True, "price": 100.0},
    "customer": {"customer_id": "CUST-1", "tier": "gold"},
    "defect_check": {"order_id": "ORD-1", "verified": False},
}
PAGE_LOOP = """async (count) => {
  const input = document.getElementById('f-order-days_since_purchase');
  const times = [];
  for (let i = 0; i < count; i++) {
    const before = document.body.dataset.answered;
    const started = performance.now();
    input.value = String(1000 + i);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    while (document.body.dataset.answered === before) await new Promise(r => setTimeout(r, 1));
    times.push(performance.now() - started);
  }
  return times;
}"""


def ms(samples: list[float]) -> str:
    p95 = statistics.quantiles(samples, n=20)[-1]
    return f"median {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms"


def api(url: str, changes: int) -> tuple[list[float], list[float]]:
    with httpx.Client(base_url=url, timeout=30) as client:
        health, explain = [], []
        for i in range(changes):
            start = time.perf_counter()
            client.get("/health").raise_for_status()
            health.append((time.perf_counter() - start) * 1000)
            facts = {**BASE, "order": {**BASE["order"], "days_since_purchase": 500 + i}}
            start = time.perf_counter()
            client.post("/policy/explain", json={"facts": facts}).raise_for_status()
            explain.append((time.perf_counter() - start) * 1000)
    return health, explain


def in_browser(url: str, changes: int) -> list[float] | None:
    browser = find()
    if browser is None:
        return None
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(browser.path), args=FLAGS, headless=True
        )
        page = context.new_page()
        page.goto(f"{url}/workbench")
        page.wait_for_selector("body[data-ready=true]")
        times = page.evaluate(PAGE_LOOP, changes)
        context.close()
    return times


def main(changes: int = 200) -> None:
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}")
    print(f"python {platform.python_version()} on {platform.platform()}")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        with serve_in_subprocess(log, env={"ENABLE_WEB_INTERFACE": "true"}) as server:
            health, explain = api(server.url, changes)
            print(f"GET /health (reference)              {ms(health)}")
            print(f"POST /policy/explain, one fact moved  {ms(explain)}")
            shown = in_browser(server.url, min(changes, 100))
            if shown is None:
                print("page in a browser: skipped, no Chromium (see tests/browser/locate.py)")
            else:
                print(f"page: type a fact -> new trace shown  {ms(shown)}")
    print("target: <= 200 ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
