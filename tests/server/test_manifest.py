"""openenv.yaml describes what the code serves: its task list is the task registry's."""

from pathlib import Path

import yaml

from novamart.scenarios.tasks import TASKS

MANIFEST = Path(__file__).resolve().parents[2] / "openenv.yaml"
TASK_FIELDS = ("name", "difficulty", "max_steps", "description")


def test_manifest_tasks_equal_the_task_registry() -> None:
    listed = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))["tasks"]
    registry = [{field: getattr(spec, field) for field in TASK_FIELDS} for spec in TASKS.values()]
    expected = yaml.safe_dump({"tasks": registry}, sort_keys=False, width=90)
    assert listed == registry, f"update the tasks in openenv.yaml to:\n{expected}"


def test_manifest_points_at_the_served_app() -> None:
    manifest = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert manifest["spec_version"] == 1
    assert (manifest["name"], manifest["type"], manifest["runtime"]) == (
        "novamart",
        "space",
        "fastapi",
    )
    assert (manifest["app"], manifest["port"]) == ("server.app:app", 8000)
