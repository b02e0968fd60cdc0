"""novamart.training.trl_env against TRL 1.16's contract for ``environment_factory``, no torch.

TRL (``GRPOTrainer.__init__``) builds one instance per environment and takes as tools every
public function of its class (``inspect.getmembers(type(instance), inspect.isfunction)``:
``reset`` and ``get_reward`` are special, names starting with ``_`` are skipped), renders their
schemas with transformers' ``get_json_schema``, calls ``reset(**row)`` with every dataset
column, calls tools with the model's arguments and reads ``get_reward()`` at the end."""

import functools
import inspect
import json
import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest
from transformers.utils import get_json_schema

from novamart.agents import AGENTS
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import CATALOGUE
from novamart.server.launch import REPO_ROOT
from novamart.training.dataset import dataset_rows
from novamart.training.trl_env import ENV_OF_TASK, ENVIRONMENTS, EpisodeOver, NovamartToolEnv

SEEDS = (0, 7, 1234)


def trl_tools(instance: object) -> tuple[list, bool, bool]:
    """TRL 1.16's discovery rule (grpo_trainer.py), applied as it applies it."""
    methods, has_reset, has_reward = [], False, False
    for member_name, _ in inspect.getmembers(type(instance), predicate=inspect.isfunction):
        if member_name == "reset":
            has_reset = True
        elif member_name == "get_reward":
            has_reward = True
        elif not member_name.startswith("_"):
            methods.append(getattr(instance, member_name))
    return methods, has_reset, has_reward


def _plain(spec: dict) -> dict:
    """What a schema says about one argument, as transformers and pydantic both write it."""
    if "anyOf" in spec:
        kinds = sorted(s["type"] for s in spec["anyOf"])
        return {"type": kinds}
    plain = {"type": spec["type"]}
    if "enum" in spec:
        plain["enum"] = spec["enum"]
    return plain


def _trl_plain(spec: dict) -> dict:
    kind = spec["type"]
    plain = {"type": sorted(kind) if isinstance(kind, list) else kind}
    if "enum" in spec:
        plain["enum"] = spec["enum"]
    if spec.get("nullable"):
        plain["type"] = sorted([plain["type"], "null"])
    return plain


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_trl_finds_exactly_the_task_tools_with_catalogue_schemas(name: str) -> None:
    cls = ENVIRONMENTS[name]
    tools, has_reset, has_reward = trl_tools(cls())
    assert has_reset and has_reward
    for task in cls.TASKS:
        assert sorted(t.__name__ for t in tools) == sorted(TASKS[task].tools)
    for tool in tools:
        schema = get_json_schema(tool)["function"]  # what TRL puts in the prompt
        description, catalogue = CATALOGUE[tool.__name__]
        assert schema["name"] == tool.__name__
        assert schema["description"] == " ".join(description.split())
        parameters = schema["parameters"]
        assert sorted(parameters.get("required", [])) == sorted(catalogue.get("required", []))
        assert set(parameters["properties"]) == set(catalogue["properties"])
        for argument, spec in catalogue["properties"].items():
            assert _trl_plain(parameters["properties"][argument]) == _plain(spec), argument


def test_every_task_has_one_environment_and_the_base_class_has_no_tools() -> None:
    assert set(ENV_OF_TASK) == set(TASKS)
    assert trl_tools(NovamartToolEnv())[0] == []


def _play_oracle(env: NovamartToolEnv, row: dict) -> list[float]:
    """The oracle through the adapter: reset with the whole row, tools called as TRL calls
    them (by name, with keyword arguments)."""
    brief = env.reset(**row)
    assert isinstance(brief, str) and row["task"] in brief
    agent = AGENTS["oracle"](row["seed"] or 0)
    agent.start(env.episode.observation, env.episode.hidden)
    while not env.episode.done:
        action = agent.act(env.episode.observation)
        answer = getattr(env, action.tool_name)(**action.arguments)
        assert isinstance(answer, str) and "result" in json.loads(answer)
    return list(env.episode.step_rewards)


@pytest.mark.parametrize("task", sorted(TASKS))
def test_the_reward_is_the_running_grade_and_the_oracle_scores_one(task: str) -> None:
    env = ENVIRONMENTS[ENV_OF_TASK[task]]()
    for seed in SEEDS:
        row = {"prompt": [{"role": "user", "content": ""}], "task": task, "seed": seed, "x": 1}
        rewards = _play_oracle(env, row)
        assert env.get_reward() == env.episode.observation.final_score == 1.0
        assert sum(rewards) == pytest.approx(env.get_reward())


def test_a_cut_short_rollout_is_rewarded_its_grade_so_far_not_its_last_step() -> None:
    env = ENVIRONMENTS["order"]()
    env.reset(task="easy_refund", seed=4)
    order_id = env.episode.observation.order_id
    env.lookup_order(order_id=order_id)
    env.check_policy(policy="no_such_policy", order_id=order_id)  # an invalid call
    rewards = env.episode.step_rewards
    assert rewards[-1] < 0 < rewards[0]
    assert env.get_reward() == pytest.approx(sum(rewards)) and env.get_reward() != rewards[-1]
    assert env.episode.observation.final_score is None


def test_a_tool_after_the_end_raises_and_changes_nothing() -> None:
    env = ENVIRONMENTS["ticket_triage"]()
    env.reset(task="ticket_triage", seed=2)
    env.classify_ticket(category="billing", priority="low")
    assert env.episode.done
    grade, steps = env.get_reward(), env.episode.observation.step_number
    with pytest.raises(EpisodeOver):
        env.classify_ticket(category="shipping", priority="high")
    assert (env.get_reward(), env.episode.observation.step_number) == (grade, steps)


def test_a_row_of_another_tool_set_is_refused() -> None:
    with pytest.raises(ValueError, match="ticket_triage"):
        ENVIRONMENTS["order"]().reset(task="ticket_triage", seed=1)


def test_a_ticket_json_column_plays_that_ticket_unchanged() -> None:
    lines = (REPO_ROOT / "data" / "tickets_sample.jsonl").read_text().splitlines()
    row = next(json.loads(line) for line in lines if '"fields"' in line)
    env = ENVIRONMENTS["data_extraction"]()
    env.reset(task="data_extraction", ticket_json=json.dumps(row), prompt=[])
    observation = env.episode.observation
    assert observation.issue_description == row["text"]
    assert observation.requested_fields == list(row["fields"])
    env.extract_info(fields=row["fields"])
    assert env.get_reward() == 1.0


def test_concurrent_instances_are_isolated() -> None:
    rows = [r for r in dataset_rows("test", stop=64)]

    def play(row: dict) -> tuple[list[float], float]:
        env = ENVIRONMENTS[row["environment"]]()
        return _play_oracle(
            env, {k: v for k, v in row.items() if k != "environment"}
        ), env.get_reward()

    alone = [play(row) for row in rows]
    with ThreadPoolExecutor(max_workers=16) as pool:
        together = list(pool.map(play, rows))
    assert together == alone
    assert {grade for _, grade in alone} == {1.0}


def test_the_dataset_rows_cover_the_split_and_reset_takes_them() -> None:
    rows = dataset_rows("train", stop=2 * len(TASKS))
    assert [r["task"] for r in rows[: len(TASKS)]] == list(TASKS)
    assert {r["environment"] for r in rows} == set(ENVIRONMENTS)
    for row in rows[:3]:
        assert (
            row["prompt"][0]["role"] == "system"
            and "respond_to_customer" in row["prompt"][0]["content"]
        )
        env = ENVIRONMENTS[row["environment"]]()
        env.reset(**{k: v for k, v in row.items() if k != "environment"})
        assert (env.episode.observation.task, env.episode.observation.step_number) == (
            row["task"],
            0,
        )
    only = dataset_rows("test", tasks=["escalation_safety"])
    assert len(only) == 100 and {r["task"] for r in only} == {"escalation_safety"}
    with pytest.raises(ValueError, match="unknown tasks"):
        dataset_rows("test", tasks=["nope"])


def test_dataset_rows_carry_the_mode_and_a_policy_variant_per_row_and_reset_plays_them() -> None:
    """An order row plays closed book under its own variant (entry i under N+i: the handbook
    states that variant's numbers); a ticket row plays as written, in no mode."""
    rows = dataset_rows("train", stop=len(TASKS), mode="closed_book", policy_variant=3)
    for index, row in enumerate(rows):
        ticket = TASKS[row["task"]].is_ticket
        expected = (None, None) if ticket else ("closed_book", 3 + index)
        assert (row["mode"], row["policy_variant"]) == expected, row
    moved = 0
    for row in rows:
        if TASKS[row["task"]].is_ticket:
            continue
        env = ENVIRONMENTS[row["environment"]]()
        env.reset(**{k: v for k, v in row.items() if k != "environment"})
        hidden = env.episode.hidden
        assert hidden.mode == "closed_book" and env.episode.observation.instructions
        if TASKS[row["task"]].is_retail:
            assert hidden.task.rules.variant == row["policy_variant"]
        else:
            moved += hidden.rules.rulebook.version != env.episode.observation.rules_version
    assert moved, "no order row played a moved policy"
    with pytest.raises(ValueError, match="mode must be one of"):
        dataset_rows("train", stop=2, mode="open_book")


def test_factories_pickle_for_async_trainers() -> None:
    factory = functools.partial(ENVIRONMENTS["order"], base_url="http://127.0.0.1:9")
    assert pickle.loads(pickle.dumps(factory)).func is ENVIRONMENTS["order"]
    assert pickle.loads(pickle.dumps(ENVIRONMENTS)) == ENVIRONMENTS
