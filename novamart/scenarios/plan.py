"""How one fact field is drawn under the rulebook and a task's character.

A field's candidate values are split into *atoms* that every policy condition on the field
treats alike: the boundary points n-1, n and n+1 of each threshold a condition compares it
with (on the field's grid: whole days, cents), and the stretches between them. An atom's
weight is its share of the field's base distribution (its draw in facts.yaml; boundary points
share ``boundaries`` of it) times, for each condition the character sets a chance for, that
chance if the atom passes the condition and one minus it if not. So the draw follows the rules:
an edited window moves the boundary points and the stretches, and a condition the character
pins (chance 0 or 1) can only come out that way.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from novamart.kernel.conditions import FieldTest
from novamart.kernel.draws import BOUNDARY_SHARE, DrawSpec
from novamart.kernel.facts import FieldSpec
from novamart.kernel.rulebook import Rulebook

SCALE = {"integer": 1, "money": 100, "number": 100}
"""Grid steps per unit: whole days, cents."""
DEFAULT_RANGE = (0.0, 100.0)


class ScenarioError(ValueError):
    """A task's character cannot be drawn under these rules (the message says why)."""


@dataclass(frozen=True, slots=True)
class Atom:
    """Values the field's conditions all treat alike: one ``value``, or the grid stretch
    ``low..high`` (grid units, inclusive)."""

    weight: float
    passes: tuple[bool, ...]
    value: Any = None
    low: int = 0
    high: int = -1

    @property
    def stretch(self) -> bool:
        return self.high >= self.low


@dataclass(frozen=True, slots=True)
class Check:
    """One condition on the field: its key ``policy.condition``, its test, and the chance
    the character wants it to pass (None: left to the draw)."""

    key: str
    test: FieldTest
    chance: float | None


@dataclass(frozen=True, eq=False)
class FieldPlan:
    """One field's draw under the rules (identity-hashed: plans are made once per version)."""

    kind: str
    name: str
    spec: FieldSpec
    checks: tuple[Check, ...]

    @property
    def ref(self) -> str:
        return f"{self.kind}.{self.name}"

    @property
    def draw(self) -> DrawSpec:
        return self.spec.draw or DrawSpec()

    def atoms(self, base: Base, only: Any = None) -> list[Atom]:
        """The weighted atoms over ``base``; ``only`` keeps the atom of that one value."""
        return _weighed(self, base, only)

    def pick(self, rng: random.Random, base: Base, only: Any = None) -> Any:
        atoms = self.atoms(base, only)
        if not atoms:
            raise ScenarioError(self._infeasible(only))
        atom = rng.choices(atoms, weights=[a.weight for a in atoms])[0]
        if not atom.stretch:
            return atom.value
        return _from_grid(self.spec, rng.randint(atom.low, atom.high))

    def nearest(self, value: Any, base: Base) -> Any:
        """``value`` itself when the character allows it, else the closest value it does
        allow (a canonical case kept in character under edited rules)."""
        allowed = self.atoms(base)
        if not allowed:
            raise ScenarioError(self._infeasible(None))
        if any(self._holds(a, value) for a in allowed):
            return value
        if self.spec.type not in SCALE:
            return next(a.value for a in allowed)
        target = _to_grid(self.spec, value)
        best = min(allowed, key=lambda a: _distance(a, target, self.spec))
        if not best.stretch:
            return best.value
        return _from_grid(self.spec, min(max(target, best.low), best.high))

    def _holds(self, atom: Atom, value: Any) -> bool:
        if not atom.stretch:
            return atom.value == value
        return atom.low <= _to_grid(self.spec, value) <= atom.high

    def _infeasible(self, only: Any) -> str:
        wanted = [f"{c.key} {'passes' if c.chance == 1 else 'fails'}" for c in self.checks]
        wanted = [w for w, c in zip(wanted, self.checks, strict=True) if c.chance in (0, 1)]
        fixed = "" if only is None else f" with {self.ref} = {only!r}"
        return f"no value of {self.ref}{fixed} lets {' and '.join(wanted) or 'its draw'} hold"


@dataclass(frozen=True)
class Base:
    """A field's base distribution before the rules weigh it: finite ``values`` with
    ``weights``, or the uniform grid stretch ``low..high`` (grid units)."""

    values: tuple[Any, ...] = ()
    weights: tuple[float, ...] = ()
    low: int = 0
    high: int = -1


def plan_fields(rulebook: Rulebook, chances: Mapping[str, float]) -> dict[str, FieldPlan]:
    """A plan for every declared field, by ``kind.field``, in declaration order."""
    checks: dict[str, list[Check]] = {}
    for policy in rulebook.policies.values():
        for cond in policy.conditions:
            if isinstance(cond.test, FieldTest):
                key = f"{policy.name}.{cond.name}"
                check = Check(key, cond.test, chances.get(key))
                checks.setdefault(cond.test.ref, []).append(check)
    return {
        f"{kind}.{name}": FieldPlan(kind, name, spec, tuple(checks.get(f"{kind}.{name}", ())))
        for kind, kind_spec in rulebook.facts.kinds.items()
        for name, spec in kind_spec.fields.items()
    }


def base_of(
    spec: FieldSpec, values: Iterable[Any] | None = None, around: float | None = None
) -> Base:
    """The base distribution of ``spec``'s draw; ``values`` when the catalogue gives the
    candidates, ``around`` the value a ``relative_to`` draw scales."""
    draw = spec.draw or DrawSpec()
    if spec.type == "bool":
        chance = 0.5 if draw.chance is None else draw.chance
        return Base(values=(True, False), weights=(chance, 1 - chance))
    if spec.type == "choice":
        assert spec.values is not None
        weights = draw.weights or {}
        chosen = tuple(values) if values is not None else spec.values
        return Base(
            values=chosen, weights=tuple(weights.get(v, 0 if weights else 1) for v in chosen)
        )
    if values is not None:
        listed = tuple(values)
        return Base(values=listed, weights=(1.0,) * len(listed))
    if around is not None and draw.factor is not None:
        lo, hi = around * draw.factor[0], around * draw.factor[1]
    else:
        lo, hi = draw.range or spec.range or DEFAULT_RANGE
    return Base(low=_to_grid(spec, lo), high=_to_grid(spec, hi))


# ---- atoms ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def _weighed(plan: FieldPlan, base: Base, only: Any) -> list[Atom]:
    """The atoms with the character's chances applied: each combination of the statuses it
    sets gets the product of their chances, shared among its atoms by base weight (so a
    chance is the share of cases that pass, whatever the field's own draw)."""
    atoms = [*_finite_atoms(plan, base), *_grid_atoms(plan, base)]
    if only is not None:
        atoms = [a for a in atoms if not a.stretch and a.value == only]
    set_by = [i for i, c in enumerate(plan.checks) if c.chance is not None]
    mass: dict[tuple[bool, ...], float] = {}
    for atom in atoms:
        key = tuple(atom.passes[i] for i in set_by)
        mass[key] = mass.get(key, 0.0) + atom.weight
    weighed = []
    for atom in atoms:
        key = tuple(atom.passes[i] for i in set_by)
        if atom.weight > 0 and (share := _fit(plan, atom.passes)) > 0:
            weighed.append(replace(atom, weight=share * atom.weight / mass[key]))
    return weighed


def _finite_atoms(plan: FieldPlan, base: Base) -> list[Atom]:
    total = sum(base.weights)
    if not base.values or total <= 0:
        return []
    share = 1 - _boundary_share(plan, base)
    return [
        Atom(weight=share * w / total, passes=_passes(plan, v), value=v)
        for v, w in zip(base.values, base.weights, strict=True)
        if w > 0
    ]


def _grid_atoms(plan: FieldPlan, base: Base) -> list[Atom]:
    if plan.spec.type not in SCALE:
        return []
    points = _points(plan)
    share = _boundary_share(plan, base)
    atoms = [
        Atom(weight=share / len(points), passes=_passes(plan, v), value=v)
        for p in points
        for v in [_from_grid(plan.spec, p)]
    ]
    if base.values or base.high < base.low:
        return atoms
    edges = [base.low - 1, *(p for p in points if base.low <= p <= base.high), base.high + 1]
    size = base.high - base.low + 1
    for left, right in itertools.pairwise(edges):
        low, high = left + 1, right - 1
        if high < low:
            continue
        passes = _passes(plan, _from_grid(plan.spec, low))
        atoms.append(Atom((1 - share) * (high - low + 1) / size, passes, low=low, high=high))
    return atoms


def _points(plan: FieldPlan) -> list[int]:
    """n-1, n, n+1 on the grid for every number a condition compares the field with,
    within the field's declared range."""
    found: set[int] = set()
    for check in plan.checks:
        values = check.test.value if isinstance(check.test.value, tuple) else (check.test.value,)
        for value in values:
            if isinstance(value, int | float) and not isinstance(value, bool):
                n = _to_grid(plan.spec, value)
                found.update((n - 1, n, n + 1))
    lo, hi = plan.spec.range or (float("-inf"), float("inf"))
    return sorted(p for p in found if lo <= _from_grid(plan.spec, p) <= hi)


def _boundary_share(plan: FieldPlan, base: Base) -> float:
    if plan.spec.type not in SCALE or not _points(plan):
        return 0.0
    return plan.draw.boundaries if plan.spec.draw else BOUNDARY_SHARE


def _passes(plan: FieldPlan, value: Any) -> tuple[bool, ...]:
    return tuple(check.test.holds(value) for check in plan.checks)


def _fit(plan: FieldPlan, passes: tuple[bool, ...]) -> float:
    weight = 1.0
    for check, passed in zip(plan.checks, passes, strict=True):
        if check.chance is not None:
            weight *= check.chance if passed else 1 - check.chance
    return weight


def _to_grid(spec: FieldSpec, value: float) -> int:
    return round(float(value) * SCALE[spec.type])


def _from_grid(spec: FieldSpec, step: int) -> Any:
    if spec.type == "integer":
        return step
    return step / SCALE[spec.type]


def _distance(atom: Atom, target: int, spec: FieldSpec) -> int:
    if not atom.stretch:
        return abs(_to_grid(spec, atom.value) - target)
    return max(atom.low - target, 0, target - atom.high)
