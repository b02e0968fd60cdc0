"""Retail tasks under policy variants (issue 20: "Both modes; policy variants as now"): the
variant's numbers decide the draw, the optimum, the gates, the handbook and the grade, the
oracle still solves every case, and an agent that learnt the rules as written loses score."""

from __future__ import annotations

import functools

import pytest

from novamart.agents.oracle import OracleAgent
from novamart.agents.retail.oracle import oracle_play
from novamart.agents.runner import run_episode
from novamart.kernel.conditions import ExprTest
from novamart.kernel.variants import parameters
from novamart.scenarios.retail_customer import case
from novamart.scenarios.retail_requests import Settled, settle, settle_all
from novamart.scenarios.retail_world import AS_WRITTEN, RetailRules, retail_kernel
from novamart.scenarios.tasks import MODES, RETAIL_TASKS, Mode
from novamart.server.environment import MAX_VARIANT, NovamartEnvironment

VARIANTS = (1, 3, 6, 11)
SEEDS = range(20)
POLICY, WINDOW = "return_delivered", "within_return_window"


class Memoriser(OracleAgent):
    """The oracle of the rules as written, whatever variant the episode plays."""

    name = "memoriser"
    retail_script = functools.partial(oracle_play, rules=AS_WRITTEN)


def window(rules: RetailRules) -> int | float:
    """The return window ``rules`` decide with, read from their compiled rulebook."""
    policy = retail_kernel(rules).rulebook.policies[POLICY]
    test = next(c.test for c in policy.conditions if c.name == WINDOW)
    assert isinstance(test, ExprTest) and test.limit is not None
    return test.limit


WRITTEN = window(AS_WRITTEN)
MOVED = RetailRules(
    variant=next(
        n
        for n in range(MAX_VARIANT)
        if parameters(retail_kernel().rulebook, n)[POLICY][WINDOW] >= WRITTEN + 5
    )
)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", RETAIL_TASKS)
def test_the_oracle_solves_every_case_under_variants(task: str, mode: Mode) -> None:
    env = NovamartEnvironment()
    for variant in VARIANTS:
        for seed in SEEDS:
            run = run_episode(
                env, OracleAgent(seed=seed), task, seed, mode=mode, policy_variant=variant
            )
            assert run.final_score == 1.0, (variant, seed)
            assert env.state.policy_variant == variant


def test_a_variant_moves_the_window_the_kernel_decides_with() -> None:
    moved = window(MOVED)
    assert moved == parameters(retail_kernel().rulebook, MOVED.variant or 0)[POLICY][WINDOW]
    assert moved != WRITTEN
    assert retail_kernel(MOVED).version != retail_kernel().version
    assert retail_kernel(MOVED) is retail_kernel(RetailRules(variant=MOVED.variant))


def _differing(seeds: range) -> list[tuple[Settled, Settled, int]]:
    """Late returns the rules as written refuse and the moved window grants, with the days
    since delivery of their items."""
    found = []
    for seed in seeds:
        task, _ = case("retail_late_return", seed)
        for request in task.requests:
            written, _ = settle(task.world, request, AS_WRITTEN)
            moved, _ = settle(task.world, request, MOVED)
            if (written.status, moved.status) == ("refused", "carried out"):
                order = task.world.customer(request.customer_id).order(request.order_id)
                days = {i.days_since_delivery for i in order.items}
                found.append((written, moved, days.pop()))
    return found


def test_a_late_return_refused_as_written_is_granted_in_the_moved_window() -> None:
    found = _differing(range(40))
    assert found
    for written, moved, days in found:
        assert WRITTEN < days <= window(MOVED)
        assert written.optimum != moved.optimum == moved.request.call.resolution


def test_the_closed_book_handbook_states_the_variants_numbers() -> None:
    env = NovamartEnvironment()
    moved = env.reset(
        task="retail_return", seed=2, mode="closed_book", policy_variant=MOVED.variant
    )
    written = env.reset(task="retail_return", seed=2, mode="closed_book")
    assert f"at most {window(MOVED)}" in moved.instructions
    assert f"within {window(MOVED)} days" in moved.instructions
    assert f"at most {WRITTEN}" not in moved.instructions
    assert f"at most {WRITTEN}" in written.instructions
    assert retail_kernel(MOVED).version in moved.instructions
    guided = env.reset(task="retail_return", seed=2, policy_variant=MOVED.variant)
    assert guided.instructions == ""


def _case_where_the_rules_differ(task: str) -> int:
    """A seed of ``task`` whose optimum under the moved rules is not the written rules'."""
    for seed in range(60):
        drawn, _ = case(task, seed, MOVED)
        written, _ = settle_all(drawn.world, drawn.requests, AS_WRITTEN)
        if tuple(s.optimum for s in written) != drawn.signature():
            return seed
    raise AssertionError(f"no case of {task} decided differently under {MOVED}")


@pytest.mark.parametrize("mode", MODES)
def test_playing_the_rules_as_written_under_a_variant_loses_score(mode: Mode) -> None:
    env = NovamartEnvironment()
    seed = _case_where_the_rules_differ("retail_late_return")
    variant = MOVED.variant
    oracle = run_episode(env, OracleAgent(seed=seed), "retail_late_return", seed, mode=mode)
    assert oracle.final_score == 1.0
    played = run_episode(
        env, Memoriser(seed=seed), "retail_late_return", seed, mode=mode, policy_variant=variant
    )
    solved = run_episode(
        env, OracleAgent(seed=seed), "retail_late_return", seed, mode=mode, policy_variant=variant
    )
    assert solved.final_score == 1.0
    assert played.final_score < 0.9
    as_written = run_episode(env, Memoriser(seed=seed), "retail_late_return", seed, mode=mode)
    assert as_written.final_score == 1.0  # it loses only where the numbers moved


@pytest.mark.parametrize("bad", [-1, MAX_VARIANT + 1, "3", 2.5, True])
def test_a_bad_policy_variant_is_a_typed_error_and_the_session_goes_on(bad: object) -> None:
    env = NovamartEnvironment()
    first = env.reset(task="retail_return", seed=1, policy_variant=2)
    with pytest.raises(ValueError, match="policy_variant must be an integer"):
        env.reset(task="retail_return", seed=1, policy_variant=bad)
    assert env.state.policy_variant == 2 and env.state.task == "retail_return"
    run = run_episode(env, OracleAgent(seed=1), "retail_return", 1, policy_variant=3)
    assert run.final_score == 1.0 and first.task == "retail_return"


def test_ticket_tasks_still_play_the_rules_as_written() -> None:
    env = NovamartEnvironment()
    with pytest.raises(ValueError, match="ticket_triage plays the rules as written"):
        env.reset(task="ticket_triage", seed=1, policy_variant=2)
    assert env.reset(task="retail_pending", seed=1, policy_variant=2).task == "retail_pending"
