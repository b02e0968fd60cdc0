"""Task characters (characters.yaml): what every case of an order task shares, against the
policies of whichever rulebook it is drawn under.

A character names policies and conditions, never numbers; ``chances`` turns it into one
chance per condition for a given rulebook, and says clearly when the rulebook lacks what the
character needs.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from novamart.kernel.conditions import FieldTest
from novamart.kernel.rulebook import Rulebook
from novamart.scenarios.plan import ScenarioError

CHARACTERS_FILE = Path(__file__).with_name("characters.yaml")
Chance = Annotated[float, Field(ge=0, le=1)]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Story(_Spec):
    defect_claim: Chance = 0
    wishes: dict[str, Annotated[float, Field(gt=0)]]
    haggle: Chance = 0
    lookalikes: Chance = 0


class Canonical(_Spec):
    facts: dict[str, dict[str, Any]]
    name: str
    product: str
    persona: str
    symptom: str = ""
    telling: dict[str, Any] = {}


class Character(_Spec):
    policies: dict[str, Literal["eligible", "blocked"] | Chance] = {}
    conditions: dict[str, Chance] = {}
    story: Story
    canonical: Canonical

    def chances(self, rulebook: Rulebook, task: str) -> dict[str, float]:
        """``policy.condition`` -> the chance it passes, for every condition the character
        sets (a policy's chance spread over its conditions, taken as independent)."""
        found: dict[str, float] = {}
        for name, wanted in self.policies.items():
            policy = rulebook.policies.get(name)
            if policy is None:
                raise ScenarioError(f"task {task} needs policy {name}, which the rules lack")
            conditions = [c.name for c in policy.conditions if isinstance(c.test, FieldTest)]
            each = _per_condition(wanted, len(conditions), policy.any_condition, task, name)
            found |= {f"{name}.{c}": each for c in conditions}
        for key, chance in self.conditions.items():
            policy_name, _, condition = key.partition(".")
            policy = rulebook.policies.get(policy_name)
            names = [c.name for c in policy.conditions] if policy else []
            if condition not in names:
                raise ScenarioError(f"task {task} needs condition {key}, which the rules lack")
            found[key] = chance
        return found

    def wishes(self, rulebook: Rulebook, task: str) -> dict[str, float]:
        unknown = [w for w in self.story.wishes if w not in rulebook.resolutions]
        if unknown:
            raise ScenarioError(f"task {task} wishes for {', '.join(unknown)}, not a resolution")
        return dict(self.story.wishes)


def _per_condition(
    wanted: str | float, count: int, any_condition: bool, task: str, policy: str
) -> float:
    if wanted == "eligible":
        if any_condition:
            raise ScenarioError(f"task {task}: {policy} needs only one condition; give a chance")
        return 1.0
    if wanted == "blocked":
        if not any_condition:
            raise ScenarioError(
                f"task {task}: {policy} is blocked by any failed condition; name which"
            )
        return 0.0
    assert isinstance(wanted, float | int)
    if count == 0:
        return float(wanted)
    if any_condition:  # 1 - (1 - q)^n = wanted
        return 1 - (1 - wanted) ** (1 / count)
    return wanted ** (1 / count)  # q^n = wanted


@functools.cache
def characters() -> dict[str, Character]:
    data = yaml.safe_load(CHARACTERS_FILE.read_text(encoding="utf-8"))
    return {name: Character.model_validate(spec) for name, spec in data.items()}
