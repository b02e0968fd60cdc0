"""A retail reset's case (issue 20: reset <= 5 ms, the world of one seed the same everywhere):
``case(task, seed)`` is the task's case and its customer, drawn once and then kept."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from novamart.scenarios.retail_character import retail_character
from novamart.scenarios.retail_customer import (
    ScriptedCustomer,
    case,
    opening,
    profile,
    reply,
    start,
)
from novamart.scenarios.retail_requests import build_task
from novamart.scenarios.retail_world import build_world
from novamart.scenarios.tasks import RETAIL_TASKS

ROOT = Path(__file__).resolve().parents[2]
SEED_0_CASES = "a8d8ea2395132c29fee9b2de9fb3ec66860a7fc56d0f463fac87928a6a582989"
"""Every retail task's case of seed 0 (worlds before and after, optimum, opening in its voice,
the customer's habits): the same on every machine. A change to the draw moves it: pin the new
value, and say why in the commit."""


def test_a_case_is_the_task_and_its_customer_drawn_afresh() -> None:
    task, p = case("retail_compound", 5)
    fresh = build_task("compound", 5)
    assert task.requests == fresh.requests and task.customer_id == fresh.customer_id
    assert task.final.digest() == fresh.final.digest()
    assert p == profile(fresh, 5, retail_character("retail_compound"))


def test_a_case_seen_before_is_kept_not_drawn_again() -> None:
    first = case("retail_refusal", 3)
    assert case("retail_refusal", 3) is first
    assert case("retail_refusal", 4) is not first


def test_the_families_of_a_seed_share_its_world() -> None:
    seed = 987_654  # no other test draws it: its case and world are drawn here, together
    tasks = ("retail_return", "retail_pending", "retail_compound")
    worlds = {id(case(t, seed)[0].world) for t in tasks}
    assert worlds == {id(build_world(seed))}


def test_the_cases_of_seed_0_are_pinned() -> None:
    digest = hashlib.sha256()
    for name in RETAIL_TASKS:
        task, p = case(name, 0)
        line = f"{name}|{task.world.digest()}|{task.final.digest()}|{task.signature()}"
        habits = f"{p.identify_by}|{p.order_numbers}|{p.other}|{[w.changed_to for w in p.wishes]}"
        digest.update(f"{line}|{opening(p)}|{habits}\n".encode())
    assert digest.hexdigest() == SEED_0_CASES


def test_a_case_does_not_depend_on_hash_order() -> None:
    code = (
        "from novamart.scenarios.retail_customer import case, opening\n"
        "for f in ('retail_exchange', 'retail_compound'):\n"
        "    t, p = case(f, 2)\n"
        "    print(t.world.digest(), t.final.digest(), t.signature(), opening(p))\n"
        "    print(p.tone, p.greeting, p.identify_by, p.order_numbers, p.other, p.wishes)"
    )
    outputs = set()
    for hash_seed in ("5", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1


def test_the_scripted_customer_is_the_reply_function() -> None:
    p = case("retail_exchange", 1)[1]
    message = f"Could you give me your email? {opening(p)}"
    assert ScriptedCustomer().reply(p, start(p), message) == reply(p, start(p), message)
