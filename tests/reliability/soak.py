"""A kernel soak: many decisions on random fact sets from several threads, with reloads.

Shared by bench/soak_kernel.py (100,000 decisions, figures for the README) and a small test.
Every ``reload_every`` decisions one worker rewrites the standard return window in a copy
of rules/ (30 <-> 14 days) and reloads; every third reload first tries a broken file, which
must be refused while the running version keeps serving. Each decision is taken on a pinned
snapshot and checked against that version's window, so a wrong answer counts as an error.
"""

from __future__ import annotations

import random
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from novamart.kernel import Facts, PolicyKernel, RulebookError, load_rulebook
from novamart.kernel.rulebook import DEFAULT_RULES_DIR

RULE_FILE = "standard_return.yaml"
WINDOWS = (30, 14)
TEST = "order.days_since_purchase <= {}"
SIGNS = ("battery_swelling", "burning_smell", "legal_threat", "account_takeover", "payment_fraud")
BOUNDARIES = (13, 14, 15, 29, 30, 31, 59, 60, 61, 89, 90, 91)


@dataclass
class SoakReport:
    decisions: int = 0
    checked: int = 0
    """Decisions whose standard_return verdict the facts settle, compared with the window."""
    errors: list[str] = field(default_factory=list)
    reloads: int = 0
    refused_reloads: int = 0
    versions: set[str] = field(default_factory=set)
    rss_mb: list[tuple[int, float]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


def random_facts(rng: random.Random) -> Facts:
    """A random fact set: each kind present or not, fields known or not, days near the
    windows' edges a third of the time, prices in cents (the memo rarely helps)."""
    kinds: dict[str, object] = {}
    order_id = f"ORD-{rng.randrange(10**6)}"
    if rng.random() < 0.85:
        days = rng.choice(BOUNDARIES) if rng.random() < 0.3 else rng.randrange(0, 200)
        kinds["order"] = dict(
            order_id=order_id,
            days_since_purchase=days if rng.random() < 0.95 else None,
            opened=rng.choice((True, False)) if rng.random() < 0.95 else None,
            price=round(rng.uniform(1, 3000), 2),
            category=rng.choice(("phone", "laptop", "earbuds", "smartwatch")),
        )
    if rng.random() < 0.6:
        tier = rng.choice(("standard", "silver", "gold"))
        kinds["customer"] = dict(customer_id=f"CUST-{rng.randrange(10**5)}", tier=tier)
    if rng.random() < 0.5:
        kinds["defect_check"] = dict(order_id=order_id, verified=rng.random() < 0.5)
    if rng.random() < 0.7:
        signs = {s: True for s in SIGNS if rng.random() < 0.03}
        kinds["ticket"] = dict(ticket_id=f"T-{order_id}", **signs)
    return Facts(**kinds)


def expected_standard_return(facts: Facts, window: int) -> str | None:
    """standard_return's status when the facts settle it without an overriding policy."""
    days, opened = facts.value("order", "days_since_purchase"), facts.value("order", "opened")
    if days is None or opened is not False:
        return None
    ticket = facts.record("ticket")
    if ticket is None or any(ticket.get(s) for s in SIGNS):
        return None  # mandatory escalation open or applying: it may set the return aside
    return "eligible" if days <= window else "blocked"


class Soak:
    def __init__(self, workdir: Path, reload_every: int, sample_every: int) -> None:
        self.rules = workdir / "rules"
        shutil.copytree(DEFAULT_RULES_DIR, self.rules)
        self.kernel = PolicyKernel(self.rules)
        self.windows = {self.kernel.version: WINDOWS[0]}
        self.reload_every = reload_every
        self.sample_every = sample_every
        self.report = SoakReport(versions={self.kernel.version})
        self._lock = threading.Lock()
        self._reloading = threading.Lock()
        self._process = psutil.Process()

    def rss_mb(self) -> float:
        return self._process.memory_info().rss / 2**20

    def run(self, decisions: int, threads: int, seed: int = 0) -> SoakReport:
        self.report.rss_mb.append((0, self.rss_mb()))
        share = [decisions // threads + (i < decisions % threads) for i in range(threads)]
        workers = [
            threading.Thread(target=self._work, args=(n, random.Random(f"soak:{seed}:{i}")))
            for i, n in enumerate(share)
        ]
        start = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        self.report.seconds = time.perf_counter() - start
        if self.report.rss_mb[-1][0] != self.report.decisions:
            self.report.rss_mb.append((self.report.decisions, self.rss_mb()))
        return self.report

    def _work(self, count: int, rng: random.Random) -> None:
        for _ in range(count):
            facts = random_facts(rng)
            try:
                snapshot = self.kernel.snapshot()
                status = snapshot.decide(facts).policies["standard_return"].status
                want = expected_standard_return(facts, self.windows[snapshot.rulebook.version])
                if want is not None:
                    self._check(status == want, f"standard_return {status}, not {want}: {facts}")
            except Exception as error:  # the soak counts every failure
                self._error(f"{type(error).__name__}: {error}")
            self._tick()

    def _check(self, right: bool, text: str) -> None:
        with self._lock:
            self.report.checked += 1
            if not right:
                self.report.errors.append(text)

    def _error(self, text: str) -> None:
        with self._lock:
            self.report.errors.append(text)

    def _tick(self) -> None:
        with self._lock:
            self.report.decisions += 1
            done = self.report.decisions
        if done % self.sample_every == 0:
            with self._lock:
                self.report.rss_mb.append((done, self.rss_mb()))
        if done % self.reload_every == 0:
            with self._reloading:
                self._reload(done // self.reload_every)

    def _reload(self, number: int) -> None:
        """Rewrite the window and reload; every third time try a broken file first."""
        path = self.rules / RULE_FILE
        old_window = self.windows[self.kernel.version]
        new_window = WINDOWS[number % 2]
        text = path.read_text()
        if number % 3 == 0:
            path.write_text(text.replace(TEST.format(old_window), "order.days_since <= 30"))
            serving = self.kernel.version
            try:
                self.kernel.reload()
                self._error("a broken rule file was accepted")
            except RulebookError:
                with self._lock:
                    self.report.refused_reloads += 1
            if self.kernel.version != serving:
                self._error("a refused reload changed the serving version")
        path.write_text(text.replace(TEST.format(old_window), TEST.format(new_window)))
        with self._lock:  # record the window before the version can serve a decision
            version = load_rulebook(self.rules).version
            self.windows[version] = new_window
        self.kernel.reload()
        with self._lock:
            self.report.reloads += 1
            self.report.versions.add(self.kernel.version)
