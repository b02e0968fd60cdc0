"""Scenarios: the hidden truth of a case, named tasks, and a seeded generator of variants."""

from novamart.scenarios.generator import build_scenario
from novamart.scenarios.scenario import CustomerRecord, OrderRecord, OtherCustomer, Scenario
from novamart.scenarios.tasks import TASKS, TaskSpec, get_task

__all__ = [
    "TASKS",
    "CustomerRecord",
    "OrderRecord",
    "OtherCustomer",
    "Scenario",
    "TaskSpec",
    "build_scenario",
    "get_task",
]
