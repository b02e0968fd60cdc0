"""openenv.yaml's validation block is true: OpenEnv 0.10's own parser accepts it, its runtime
graders pass on the probe plan against a live server, and every declaration (tools, task
counts, reward range) matches what the code serves. The task routes agree with the manifest."""

import json
from pathlib import Path

import httpx
import pytest
import yaml
from openenv.core.env_server.mcp_types import CallToolAction
from openenv.discovery.metadata import DiscoveryDeclaration
from openenv.validation.graders import Subject
from openenv.validation.graders.runtime.basic import (
    ObservationSchemaGrader,
    RewardWellFormedGrader,
    StateContractGrader,
)
from openenv.validation.parsers.openenv_yaml import OpenEnvYamlParser
from openenv.validation.runtime.collector import collect_runtime_evidence
from openenv.validation.runtime.contracts import load_runtime_plan
from openenv.validation.types import CheckStatus

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import CATALOGUE, NovamartEnvironment
from novamart.server.launch import REPO_ROOT, RunningServer
from novamart.server.task_api import SPLITS

MANIFEST_PATH = REPO_ROOT / "openenv.yaml"
PLAN_TASK, PLAN_SEED = "easy_refund", 1


def _manifest() -> dict:
    return yaml.safe_load(MANIFEST_PATH.read_text(encoding="utf-8"))


def expected_plan() -> dict:
    """The probe: the oracle's easy_refund episode, with a refused refund of 1.0 after the
    lookup so that a negative step reward is part of what the graders check."""
    oracle = run_episode(
        NovamartEnvironment(), AGENTS["oracle"](PLAN_SEED), PLAN_TASK, PLAN_SEED, keep=True
    )
    steps = [{"type": "call_tool", **a.model_dump(exclude={"metadata"})} for a in oracle.actions]
    order_id = steps[0]["arguments"]["order_id"]
    refused = {
        "type": "call_tool",
        "tool_name": "process_refund",
        "arguments": {"order_id": order_id, "amount": 1.0},
    }
    reset = {"episode_id": f"validation-{PLAN_TASK}-{PLAN_SEED}", "seed": PLAN_SEED}
    return {
        "plan_schema_version": "1",
        "reset": {**reset, "options": {"task": PLAN_TASK}},
        "actions": [steps[0], refused, *steps[1:]],
    }


def test_the_probe_plan_is_the_oracle_episode_plus_a_refusal() -> None:
    committed = json.loads((REPO_ROOT / "validation" / "runtime.json").read_text())
    wanted = expected_plan()
    assert committed == wanted, f"write validation/runtime.json as:\n{json.dumps(wanted, indent=2)}"
    assert not any(step.get("type") == "list_tools" for step in committed["actions"])


def test_openenv_parses_the_manifest_with_its_declarations_true() -> None:
    parsed = OpenEnvYamlParser().parse(REPO_ROOT)
    capabilities = parsed.capabilities
    assert capabilities.declared_tools == list(CATALOGUE)
    assert capabilities.declared_task_count == {name: s.size() for name, s in SPLITS.items()}
    assert capabilities.rubric_tree and capabilities.task_api
    assert parsed.network.mode == "no-network"
    assert tuple(parsed.reward.range) == (-1.0, 1.0)  # a grade's change: [-1, 1]
    assert parsed.execution.probe_path == "validation/runtime.json"


def test_step_rewards_fall_in_the_declared_range_and_go_negative() -> None:
    low, high = _manifest()["validation"]["reward"]["range"]
    rewards = []
    for name in TASKS:
        for agent in ("oracle", "random", "refund_everything", "tool_spam"):
            env = NovamartEnvironment()
            run = run_episode(env, AGENTS[agent](3), name, 3, keep=True)
            rewards += [o.reward for o in run.observations[1:]]
    assert all(low <= r <= high for r in rewards)
    assert min(rewards) < 0.0  # the template's [0, 1] would be false


# OpenEnv 0.10's collector opens its socket the way websockets 17 deprecates (its code, not ours)
@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
def test_openenv_runtime_graders_pass_on_a_live_server(
    server: RunningServer, tmp_path: Path
) -> None:
    parsed = OpenEnvYamlParser().parse(REPO_ROOT)
    plan = load_runtime_plan(REPO_ROOT, parsed.execution)
    evidence = collect_runtime_evidence(
        server.url, plan, episode_timeout_s=parsed.resources.episode_timeout_s
    )
    assert evidence.failure_reason is None
    subject = Subject(REPO_ROOT, parsed, None, None, tmp_path, runtime_evidence=evidence)
    for grader in (RewardWellFormedGrader(), ObservationSchemaGrader(), StateContractGrader()):
        report = grader.run(subject)
        assert report.status == CheckStatus.PASS, (grader.check_id, report.evidence)
    steps = [json.loads(x.response_json) for x in evidence.exchanges if x.operation == "step"]
    rewards = [step["data"]["reward"] for step in steps]
    assert len(rewards) == len(plan.actions) and min(rewards) < 0.0
    local = NovamartEnvironment()
    local.reset(**plan.reset.options, seed=plan.reset.seed)
    replayed = [local.step(CallToolAction.model_validate(a)).reward for a in plan.actions]
    assert rewards == replayed and 0.9 < sum(rewards) < 1.0  # the refusal costs a little


def test_the_task_routes_agree_with_the_manifest(server: RunningServer) -> None:
    manifest = _manifest()
    base = f"{server.url}/novamart"
    splits = httpx.get(f"{base}/splits").json()
    assert [s["name"] for s in splits] == list(SPLITS)
    declared = manifest["validation"]["capabilities"]["declared_task_count"]
    for split in SPLITS:
        counted = httpx.post(f"{base}/num_tasks", json={"split": split}).json()["num_tasks"]
        assert counted == declared[split]
    canonical = httpx.post(f"{base}/tasks", json={"split": "canonical"}).json()["tasks"]
    assert [entry["task"] for entry in canonical] == [t["name"] for t in manifest["tasks"]]
    assert all(entry["seed"] is None for entry in canonical)
    entry = httpx.post(f"{base}/task", json={"split": "test", "index": 9}).json()["task"]
    assert entry == SPLITS["test"].entry(9)
    window = httpx.post(f"{base}/task_range", json={"split": "train", "start": 8, "stop": 24})
    assert window.json()["tasks"] == [SPLITS["train"].entry(i) for i in range(8, 24)]
    outside = httpx.post(f"{base}/task", json={"split": "test", "index": 10**6})
    assert outside.status_code == 400
    unknown = httpx.post(f"{base}/num_tasks", json={"split": "holdout"})
    assert unknown.status_code == 422 and "canonical" in unknown.json()["detail"]


def test_discovery_json_is_what_openenvs_catalog_reads_and_true() -> None:
    text = (REPO_ROOT / "discovery.json").read_text(encoding="utf-8")
    declared = DiscoveryDeclaration.model_validate(json.loads(text))
    assert declared.agent_tools is not None
    assert declared.agent_tools.names == list(CATALOGUE)
    assert (REPO_ROOT / declared.agent_tools.source).is_file()
    assert 2 <= len(declared.representative_queries) <= 5
    assert set(_manifest()["validation"]["types"]["tags"]) <= set(declared.tags)


def test_metadata_and_schema_describe_novamart(server: RunningServer) -> None:
    metadata = httpx.get(f"{server.url}/metadata").json()
    assert metadata["readme_content"] == (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert metadata["author"]
    assert httpx.get(server.url + metadata["documentation_url"]).status_code == 200
    schema = httpx.get(f"{server.url}/schema").json()
    assert {"grade", "grade_terms", "task", "final_score"} <= set(schema["state"]["properties"])
    state = httpx.get(f"{server.url}/state").json()
    assert set(state) >= {"grade", "grade_terms", "task"}  # the full NovamartState
