"""How scenarios draw a declared fact field: the ``draw:`` block of a field in facts.yaml.

The declaration says what a field *is*; its draw says how often each value comes up in the
generated cases, so an analyst who adds a field also says how the world produces it, and
the generator (novamart.scenarios) needs no code for it. Validated with the field, so
``rules check`` names a bad draw by file and line.

    days_since_purchase: {draw: {range: [0, 100]}}     uniform within, plus boundary days
    opened:              {draw: {chance: 0.5}}         a bool: the chance it is true
    tier:                {draw: {weights: {standard: 1, silver: 1, gold: 1}}}
    price:               {draw: {catalogue: price}}    the price list of the product drawn
    competitor_price:    {draw: {relative_to: order.price, factor: [0.8, 1.1]}}
    order_id:            {draw: {prefix: ORD-, digits: 6}}
    battery_swelling:    {draw: {chance: 0.03, tells: [...], lookalikes: [...]}}

Every numeric field also gets ``boundaries`` (default 0.3): that share of its draws lands on
n-1, n and n+1 of each threshold a policy condition compares it with, so editing a window
moves the boundary cases with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Chance = Annotated[float, Field(ge=0, le=1)]
Sentence = Annotated[str, Field(min_length=1, max_length=300)]
CATALOGUE_FIELDS = {"category": "choice", "price": "money"}
"""What the product catalogue provides: a product's category, and its list price."""
BOUNDARY_SHARE = 0.3
NUMERIC_TYPES = ("integer", "number", "money")


ID_CHARACTERS = r"A-Za-z0-9_.:#@/+-"
"""What an identifier may hold: what real systems use (``#W2378156``, ``gift_card_0000000``)."""


class DrawSpec(BaseModel):
    """One field's draw. Which keys apply depends on the field's type (``check``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    range: tuple[float, float] | None = None
    boundaries: Chance = BOUNDARY_SHARE
    relative_to: str | None = None
    factor: tuple[float, float] | None = None
    catalogue: Literal["category", "price"] | None = None
    chance: Chance | None = None
    weights: dict[str, Annotated[float, Field(ge=0)]] | None = None
    prefix: Annotated[str, Field(pattern=rf"^[{ID_CHARACTERS}]*$", max_length=20)] | None = None
    digits: Annotated[int, Field(ge=1, le=12)] | None = None
    same_as: str | None = Field(default=None, alias="from")
    tells: tuple[Sentence, ...] = ()
    lookalikes: tuple[Sentence, ...] = ()

    def problems(
        self,
        type_: str,
        values: tuple[str, ...] | None,
        declared: tuple[float, float] | None,
    ) -> list[str]:
        """What does not fit a field of ``type_`` (with its ``values`` or ``range``)."""
        given = self.model_fields_set - {"boundaries"}
        allowed = {
            "id": {"prefix", "digits", "same_as"},
            "bool": {"chance", "tells", "lookalikes"},
            "choice": {"weights", "catalogue"},
            "integer": {"range"},
            "number": {"range", "relative_to", "factor"},
            "money": {"range", "relative_to", "factor", "catalogue"},
            "text": set(),
        }[type_]
        problems = [
            f"draw: {_key(k)} does not apply to a {type_} field" for k in sorted(given - allowed)
        ]
        if type_ == "id" and (self.digits is None) == (self.same_as is None):
            problems.append("draw: an id takes digits (a new number) or from (another id)")
        if self.weights is not None and values is not None:
            problems += [
                f"draw: weights name {k!r}, which is not one of its values ({', '.join(values)})"
                for k in self.weights
                if k not in values
            ]
            if not any(self.weights.values()):
                problems.append("draw: at least one weight must be above 0")
        if self.catalogue is not None and CATALOGUE_FIELDS[self.catalogue] != type_:
            gives = CATALOGUE_FIELDS[self.catalogue]
            problems.append(f"draw: the catalogue's {self.catalogue} is a {gives}, not a {type_}")
        if self.range is not None:
            lo, hi = self.range
            if lo > hi:
                problems.append("draw: range: the smallest value comes first")
            if declared is not None and (lo < declared[0] or hi > declared[1]):
                problems.append(
                    f"draw: range {list(self.range)} leaves the field's range {list(declared)}"
                )
        if (self.relative_to is None) != (self.factor is None):
            problems.append("draw: relative_to and factor go together")
        if self.factor is not None and not 0 <= self.factor[0] <= self.factor[1]:
            problems.append("draw: factor: two non-negative numbers, the smallest first")
        sources = [k for k in ("range", "relative_to", "catalogue") if getattr(self, k)]
        if len(sources) > 1:
            problems.append(f"draw: choose one of {', '.join(sources)}")
        return problems


def _key(name: str) -> str:
    return "from" if name == "same_as" else name


def draw_reference_problems(kinds: Mapping[str, Any]) -> list[str]:
    """Draws that name another field (``relative_to``, ``from``) must name one of the right
    type; ``tells`` and ``lookalikes`` only suit a fact the customer's message shows."""
    problems = []
    for kind, spec in kinds.items():
        for name, field in spec.fields.items():
            draw, where = field.draw, f"{kind}.{name}"
            if draw is None:
                continue
            for key, ref, wanted in (
                ("relative_to", draw.relative_to, NUMERIC_TYPES),
                ("from", draw.same_as, ("id",)),
            ):
                if ref is None:
                    continue
                target_kind, _, target_field = ref.partition(".")
                target = kinds.get(target_kind)
                other = target.fields.get(target_field) if target is not None else None
                if other is None or other.type not in wanted:
                    kinds_wanted = " or ".join(wanted)
                    problems.append(
                        f"{where}: draw: {key} {ref!r} is not a declared {kinds_wanted} field"
                    )
                elif ref == where:
                    problems.append(f"{where}: draw: {key} names the field itself")
            if (draw.tells or draw.lookalikes) and spec.revealed_by is not None:
                problems.append(
                    f"{where}: draw: tells and lookalikes are for facts the customer's message "
                    f"shows (revealed_by: null); {kind} is revealed by {spec.revealed_by}"
                )
    return problems
