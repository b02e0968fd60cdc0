"""Scenarios: the hidden truth of a case, named tasks, and a seeded generator of variants."""

from novamart.scenarios.generator import build_scenario
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.scenario import CustomerRecord, OrderRecord, OtherCustomer, Scenario
from novamart.scenarios.tasks import MODES, TASKS, Mode, TaskSpec, get_task

__all__ = [
    "MODES",
    "TASKS",
    "CustomerRecord",
    "Mode",
    "OrderRecord",
    "OtherCustomer",
    "Scenario",
    "ScenarioError",
    "TaskSpec",
    "build_scenario",
    "get_task",
]
