"""Passing needs a reply (issue 18, item 5): on an order case the right resolution followed
by silence, or by a message that does not confirm it, stays below the pass mark, in the
final score and in the running grade a trainer reads when a rollout stops; a rude closing
never passes; the honest closing still earns 1.000, and the step rewards still sum to the
final score."""

from __future__ import annotations

import math

import pytest
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents import AGENTS
from novamart.agents.base import Script
from novamart.agents.oracle import OracleAgent, optimal_actions
from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.models import NovamartObservation
from novamart.reward import HELD_AT, TERMS, ZERO, Judgement, grade, judged, step_breakdown
from novamart.scenarios.tasks import MODES, ORDER_TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.training.trl_env import ENVIRONMENTS

SEEDS = range(12)
CASES = [(t, m, s) for t in ORDER_TASKS for m in MODES for s in SEEDS]
VARIANT_CASES = [(t, m, s) for t in ORDER_TASKS for m in MODES for s in (100, 101)]
NOT_CONFIRMING = (
    "Thank you for your patience, {name}. Have a lovely day!",
    "Thanks for reaching out, {name}; we appreciate your business.",
    "Hi {name}, I've looked into your order. Let me know if there's anything else.",
)
INSULTS = (
    "Frankly, you are an idiot.",
    "Shut up and stop complaining.",
    "What a stupid question. Read the policy next time.",
    "Calm down, it is not my problem.",
    "You're a moron, deal with it.",
    "Pathetic. Get over it.",
)


def _play(
    env: NovamartEnvironment, task: str, mode: str, seed: int, closing: str | None, **case: object
) -> tuple[NovamartObservation, list[float]]:
    """Reset, carry out the optimum (the oracle's actions), then send ``closing`` (the
    oracle's own closing with "{oracle}", nothing with None). Returns the last observation
    and the step rewards; checks every step's breakdown against the grade's change."""
    first = env.reset(task=task, seed=seed, mode=mode, **case)
    episode = env.episode
    assert episode is not None
    rewards: list[float] = []
    before = ZERO  # the grade before the first step, as the environment keeps it

    def step(action: CallToolAction) -> NovamartObservation:
        nonlocal before
        observation = env.step(action)
        after = grade(episode)
        assert observation.reward_breakdown == step_breakdown(before, after)
        assert math.isclose(sum(observation.reward_breakdown.values()), observation.reward or 0)
        rewards.append(observation.reward or 0.0)
        before = after
        return observation

    actions = optimal_actions(first, episode)
    observation = step(next(actions))
    try:
        while True:
            observation = step(actions.send(observation))
    except StopIteration:
        pass
    if closing is not None:
        best = episode.truth.optimal
        assert best is not None
        oracle = OracleAgent(seed).closing(episode, first, best)
        name = first.customer_name.split()[0]
        message = closing.format(oracle=oracle, name=name)
        observation = step(
            CallToolAction(tool_name="respond_to_customer", arguments={"message": message})
        )
    return observation, rewards


@pytest.mark.parametrize(("task", "mode", "seed"), CASES)
def test_the_right_resolution_then_silence_stays_below_the_pass_mark(
    env: NovamartEnvironment, task: str, mode: str, seed: int
) -> None:
    observation, rewards = _play(env, task, mode, seed, None)
    assert not observation.done
    assert env.state.grade < PASS_THRESHOLD, env.state.grade_terms
    assert math.isclose(sum(rewards), env.state.grade, abs_tol=1e-9)


@pytest.mark.parametrize(("task", "mode", "seed"), VARIANT_CASES)
def test_silence_stays_below_the_pass_mark_under_a_policy_variant(
    env: NovamartEnvironment, task: str, mode: str, seed: int
) -> None:
    _play(env, task, mode, seed, None, policy_variant=seed % 7 + 1)
    assert env.state.grade < PASS_THRESHOLD, env.state.grade_terms


@pytest.mark.parametrize("closing", NOT_CONFIRMING)
def test_a_kind_message_that_confirms_nothing_does_not_pass(
    env: NovamartEnvironment, closing: str
) -> None:
    for task, mode, seed in CASES[::5]:
        _play(env, task, mode, seed, closing)
        assert env.state.grade < PASS_THRESHOLD, (task, mode, seed, env.state.grade_terms)


@pytest.mark.parametrize("insult", INSULTS)
def test_a_rude_closing_never_passes(env: NovamartEnvironment, insult: str) -> None:
    for task, mode, seed in CASES[::4]:
        for closing in ("{oracle} " + insult, insult + " {oracle}"):
            observation, rewards = _play(env, task, mode, seed, closing)
            score = observation.final_score if observation.done else env.state.grade
            assert score is not None and score < PASS_THRESHOLD, (task, mode, seed, insult)
            assert math.isclose(sum(rewards), score, abs_tol=1e-9)


@pytest.mark.parametrize(("task", "mode", "seed"), CASES[::3])
def test_the_honest_closing_after_silence_still_earns_full_marks(
    env: NovamartEnvironment, task: str, mode: str, seed: int
) -> None:
    observation, rewards = _play(env, task, mode, seed, "{oracle}")
    assert observation.done and observation.final_score == 1.0
    assert math.isclose(sum(rewards), 1.0, abs_tol=1e-9)
    assert set(TERMS) <= set(observation.reward_breakdown)


def test_a_trainer_reading_a_rollout_that_stopped_silent_gets_less_than_a_pass() -> None:
    """TRL ends a rollout at a turn without a tool call and reads ``get_reward()``."""
    order = ENVIRONMENTS["order"]
    for task in ORDER_TASKS:
        for seed in (0, 1, 2):
            env = order()
            env.reset(task=task, seed=seed)
            hidden = env.episode.hidden
            assert hidden is not None
            first = env.episode.observation
            for action in _calls(optimal_actions(first, hidden), env):
                del action
            assert not env.episode.done
            assert env.get_reward() < PASS_THRESHOLD, (task, seed)
            best = hidden.truth.optimal
            assert best is not None
            env.respond_to_customer(message=OracleAgent(seed).closing(hidden, first, best))
            assert env.episode.done and env.get_reward() == 1.0


def _calls(actions: Script, env: object) -> list[CallToolAction]:
    """Feed a script its observations while calling its actions as the trainer's tools."""
    done = []
    observation = None
    try:
        action = next(actions)
        while True:
            getattr(env, action.tool_name)(**action.arguments)
            done.append(action)
            observation = env.episode.observation  # type: ignore[attr-defined]
            action = actions.send(observation)
    except StopIteration:
        return done


def test_the_reference_agents_keep_their_scores(env: NovamartEnvironment) -> None:
    """The oracle still earns 1.000 on every order case, the honest writer 0.99 or more on
    average per task and mode (as before the gate: it confirms what it carried out)."""
    for name, mean_floor in (("oracle", 1.0), ("honest", 0.99)):
        for task in ORDER_TASKS:
            for mode in MODES:
                scores = []
                for seed in SEEDS:
                    agent = AGENTS[name](seed)
                    observation = env.reset(task=task, seed=seed, mode=mode)
                    agent.start(observation, env.episode)
                    while not observation.done:
                        observation = env.step(agent.act(observation))
                    assert observation.final_score is not None
                    scores.append(observation.final_score)
                assert sum(scores) / len(scores) >= mean_floor, (name, task, mode, scores)
                assert min(scores) >= PASS_THRESHOLD, (name, task, mode, scores)


def test_a_judge_cannot_lift_the_hold(env: NovamartEnvironment) -> None:
    """An LLM judge grades communication in place of the reader; the gate still holds an
    unconfirmed episode below the pass mark, however well the judge marks its messages."""
    for task in ORDER_TASKS:
        _play(env, task, "guided", 3, NOT_CONFIRMING[0])
        episode = env.episode
        assert episode is not None
        lifted = judged(episode, grade(episode), Judgement(score=1.0, note="perfect"))
        assert lifted.terms["communication"] > grade(episode).terms["communication"]
        assert lifted.value == HELD_AT < PASS_THRESHOLD
