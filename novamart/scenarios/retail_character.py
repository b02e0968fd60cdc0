"""Retail task characters (rules/retail/world/characters.yaml): who each retail task's
customer is, so its habits are data, not constants of the customer's code.

A character names the request family its customer brings (world.yaml) and the chances of its
habits: its voice, changing its mind once, acting for someone else, how it verifies itself
and whether it knows its order numbers. A bad entry is a ``CharacterError`` naming the entry
and the field, never a bare validation error.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from novamart.scenarios.personas import Tone
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.retail_world import world_spec
from novamart.scenarios.tasks import RETAIL_DIR

CHARACTERS_FILE = RETAIL_DIR / "world" / "characters.yaml"
Chance = Annotated[float, Field(ge=0, le=1)]
Weight = Annotated[float, Field(gt=0)]
IdentifyBy = Literal["email", "name and zip"]
OrderNumbers = Literal["volunteers", "when asked", "unknown"]
K = TypeVar("K", bound=str)


class CharacterError(ScenarioError):
    """A retail character the file gets wrong: which entry, which field, what is wrong."""

    def __init__(self, entry: str, field: str, problem: str) -> None:
        super().__init__(f"retail character {entry}: {field}: {problem}")
        self.entry, self.field = entry, field


class RetailCharacter(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    requests: str
    voices: Annotated[dict[Tone, Weight], Field(min_length=1)]
    change_of_mind: Chance
    acts_for_other: Chance
    identify_by: Annotated[dict[IdentifyBy, Weight], Field(min_length=1)]
    order_numbers: Annotated[dict[OrderNumbers, Weight], Field(min_length=1)]


def drawn(weights: Mapping[K, float], rng: random.Random) -> K:
    """One key of ``weights``, drawn in the file's order (seeded, machine-independent)."""
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def parse(data: Any, families: Mapping[str, Any]) -> dict[str, RetailCharacter]:
    """The characters of a characters file's ``data``, each checked, its family among
    ``families`` (world.yaml ``requests.families``)."""
    if not isinstance(data, dict):
        raise CharacterError("(file)", "(top level)", "expected a mapping of task name -> entry")
    found = {}
    for name, spec in data.items():
        if not isinstance(spec, dict):
            raise CharacterError(str(name), "(entry)", "expected a mapping of fields")
        try:
            character = RetailCharacter.model_validate({**spec, "name": name})
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(p) for p in error["loc"] if p != "[key]") or "(entry)"
            raise CharacterError(str(name), field, error["msg"]) from None
        if character.requests not in families:
            known = ", ".join(families)
            raise CharacterError(
                str(name), "requests", f"no request family {character.requests!r} ({known})"
            )
        found[str(name)] = character
    return found


def retail_characters(path: Path = CHARACTERS_FILE) -> dict[str, RetailCharacter]:
    """Every retail task's character, by task name (read and checked once per file)."""
    return _characters(path)


@functools.cache
def _characters(path: Path) -> dict[str, RetailCharacter]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return parse(data, world_spec()["requests"]["families"])


def retail_character(task: str) -> RetailCharacter:
    """The character of retail task ``task``; a task without one is a CharacterError."""
    found = retail_characters()
    if task not in found:
        raise CharacterError(task, "(entry)", f"no character in {CHARACTERS_FILE.name}")
    return found[task]
