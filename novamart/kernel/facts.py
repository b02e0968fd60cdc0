"""The facts the policies reason over: declared in ``rules/facts.yaml``, validated strictly.

The declaration names each fact kind, the tool that reveals it and its typed fields, so an
analyst adds a field (and a policy testing it) without touching Python. durable_rules compares
loosely (``'12' <= 30`` is true, ``0 == false``), so every fact set is checked against the
declaration with strict types before it reaches the engine. ``Facts`` itself is a plain,
hashable container (kind -> field -> value), so decisions can be memoised by fact set.
"""

from __future__ import annotations

from collections.abc import Collection, ItemsView, Iterator, Mapping
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    create_model,
    model_validator,
)

from novamart.kernel.draws import ID_CHARACTERS, DrawSpec, draw_reference_problems

FieldType = Literal["id", "integer", "number", "money", "bool", "choice"]
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
Identifier = Annotated[str, Field(min_length=1, max_length=64, pattern=rf"^[{ID_CHARACTERS}]+$")]
ChoiceValue = Annotated[
    str, Field(min_length=1, max_length=64, pattern=r"^[^\s{}'\"](?:[^{}'\"\n]*[^\s{}'\"])?$")
]
"""A choice's value: a word, or words with spaces or brackets as real systems name statuses
(``pending (item modified)``); no braces (reasons use them) nor quotes (tests quote such a
value: ``order.status == 'pending (item modified)'``)."""
NUMERIC: frozenset[str] = frozenset({"integer", "number", "money"})


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldSpec(_Spec):
    """One declared field, as analysts write it in rules/facts.yaml."""

    type: FieldType
    describe: str
    values: tuple[ChoiceValue, ...] | None = None
    range: tuple[float, float] | None = None
    unit: str | None = None
    default: bool | int | float | str | None = None
    says: tuple[str, ...] = ()
    says_true: tuple[str, ...] = ()
    says_false: tuple[str, ...] = ()
    draw: DrawSpec | None = None
    """How scenarios draw the field (novamart.kernel.draws)."""

    @model_validator(mode="after")
    def _consistent(self) -> FieldSpec:
        if self.type == "choice" and not self.values:
            raise ValueError("a choice needs its values: values: [a, b]")
        if self.type != "choice" and self.values is not None:
            raise ValueError(f"values are only for a choice, not a {self.type}")
        if self.range is not None and self.type not in NUMERIC:
            raise ValueError(f"range is only for a number, not a {self.type}")
        if self.range is not None and self.range[0] > self.range[1]:
            raise ValueError("range: the smallest value comes first")
        if self.type == "bool" and self.says:
            raise ValueError("a bool lists its phrases under says_true: and says_false:")
        if self.type != "bool" and (self.says_true or self.says_false):
            raise ValueError("says_true: and says_false: are only for a bool; use says:")
        if self.draw and (problems := self.draw.problems(self.type, self.values, self.range)):
            raise ValueError("; ".join(problems))
        return self

    @property
    def python_type(self) -> type:
        """What a condition compares this field with: a number, text or true/false."""
        return {"bool": bool, "integer": int, "number": float, "money": float}.get(self.type, str)

    def annotation(self) -> Any:
        """The strict pydantic type a value of this field must have."""
        if self.type == "id":
            return Identifier
        if self.type == "bool":
            return StrictBool
        if self.type == "choice":
            return Literal[self.values]  # type: ignore[valid-type]
        lo, hi = self.range or (None, None)
        base = StrictInt if self.type == "integer" else float
        return Annotated[base, Field(ge=lo, le=hi, allow_inf_nan=False, strict=True)]


class KindSpec(_Spec):
    """One fact kind: the tool that reveals it (None: known from the customer's message)."""

    revealed_by: Name | None
    fields: dict[Name, FieldSpec]

    @model_validator(mode="after")
    def _one_id(self) -> KindSpec:
        ids = [n for n, f in self.fields.items() if f.type == "id"]
        if len(ids) != 1:
            raise ValueError("a fact kind needs exactly one field of type id (its identifier)")
        return self

    @property
    def id_field(self) -> str:
        return next(n for n, f in self.fields.items() if f.type == "id")


class FactsFile(_Spec):
    facts: dict[Name, KindSpec]

    @model_validator(mode="after")
    def _draws_refer(self) -> FactsFile:
        if problems := draw_reference_problems(self.facts):
            raise ValueError("; ".join(problems))
        return self


class FactRecord(Mapping[str, Any]):
    """One fact kind's known fields (a field whose value is unknown is absent), in field
    order; a plain dict inside, so reading a field or copying the record is a dict's work."""

    __slots__ = ("_fields", "_hash")

    def __init__(self, fields: Mapping[str, Any]) -> None:
        self._hash: int | None = None
        if isinstance(fields, FactRecord):
            self._fields: dict[str, Any] = fields._fields
            self._hash = fields._hash
        else:
            self._fields = dict(sorted((k, v) for k, v in fields.items() if v is not None))

    def __getitem__(self, field: str) -> Any:
        return self._fields[field]

    def __contains__(self, field: object) -> bool:
        return field in self._fields

    def get(self, field: str, default: Any = None) -> Any:
        return self._fields.get(field, default)

    def items(self) -> ItemsView[str, Any]:
        return self._fields.items()

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._fields.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FactRecord) and self._fields == other._fields

    def __repr__(self) -> str:
        return f"FactRecord({self._fields!r})"


class Facts:
    """Everything known about one case, by kind; a missing kind makes its conditions unknown.

    ``Facts(order={...}, customer={...})``; immutable and hashable. Types are checked against
    the rulebook's declaration (``FactSchema.check``) before the engine sees them.
    """

    __slots__ = ("_checked", "_hash", "_kinds")

    def __init__(self, **kinds: Mapping[str, Any] | None) -> None:
        self._kinds = {k: FactRecord(v) for k, v in sorted(kinds.items()) if v is not None}
        self._hash: int | None = None
        self._checked: FactSchema | None = None
        """The schema that checked these facts (defaults filled in), so no one checks twice."""

    def present(self) -> dict[str, FactRecord]:
        """The kinds that are known, by name."""
        return dict(self._kinds)

    def record(self, kind: str) -> FactRecord | None:
        return self._kinds.get(kind)

    def value(self, kind: str, field: str) -> Any:
        """The observed value of ``kind.field``, or None when unknown."""
        record = self._kinds.get(kind)
        return None if record is None else record.get(field)

    def only(self, kinds: Collection[str]) -> Facts:
        """The known kinds among ``kinds``; checked if these facts were (each kind is checked
        on its own, and a part of consistent links is consistent)."""
        part = Facts(**{k: r for k, r in self._kinds.items() if k in kinds})
        part._checked = self._checked
        return part

    def with_kind(self, kind: str, fields: Mapping[str, Any]) -> Facts:
        return Facts(**{**self._kinds, kind: fields})

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {kind: dict(record.items()) for kind, record in self._kinds.items()}

    def __hash__(self) -> int:
        if self._hash is None:  # decisions are memoised by fact set: hashed many times
            self._hash = hash(tuple(self._kinds.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Facts) and self._kinds == other._kinds

    def __repr__(self) -> str:
        return f"Facts({self.as_dict()!r})"


class FactSchema(BaseModel):
    """The declared fact vocabulary of one rulebook, with strict validators built from it."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    kinds: dict[str, KindSpec]

    def field(self, kind: str, field: str) -> FieldSpec | None:
        spec = self.kinds.get(kind)
        return None if spec is None else spec.fields.get(field)

    def source_tool(self, kind: str) -> str | None:
        return self.kinds[kind].revealed_by

    def investigated(self) -> list[str]:
        """The kinds a tool reveals, in declaration order (the others are known at once)."""
        return [k for k, spec in self.kinds.items() if spec.revealed_by]

    def refs(self) -> list[str]:
        """Every ``kind.field`` a condition may test."""
        return [f"{k}.{f}" for k, spec in self.kinds.items() for f in spec.fields]

    @cached_property
    def _model(self) -> type[BaseModel]:
        kinds = {}
        for kind, spec in self.kinds.items():
            fields: dict[str, Any] = {}
            for name, f in spec.fields.items():
                if f.type == "id":
                    fields[name] = (f.annotation(), ...)
                else:
                    fields[name] = (f.annotation() | None, f.default)
            config = ConfigDict(extra="forbid", frozen=True)
            kinds[kind] = (create_model(kind, __config__=config, **fields) | None, None)
        model = create_model("Facts", __config__=ConfigDict(extra="forbid"), **kinds)
        return model

    def validate(self, raw: Mapping[str, Any]) -> Facts:
        """Untyped facts (JSON) checked strictly; raises pydantic.ValidationError."""
        checked = self._model.model_validate(raw)
        kinds = {
            kind: value.model_dump() for kind in self.kinds if (value := getattr(checked, kind))
        }
        facts = Facts(**kinds)
        self._check_links(facts)
        facts._checked = self
        return facts

    def check(self, facts: Facts) -> Facts:
        """``facts`` built in code, checked the same way (and defaults filled in); facts this
        schema checked already are returned as they are (checking them again changes nothing)."""
        if facts._checked is self:
            return facts
        return self.validate(facts.as_dict())

    def _check_links(self, facts: Facts) -> None:
        """Kinds that share an identifier field (an order and its defect check) must agree."""
        seen: dict[str, tuple[str, Any]] = {}
        for kind, record in facts.present().items():
            id_field = self.kinds[kind].id_field
            value = record.get(id_field)
            first, first_value = seen.setdefault(id_field, (kind, value))
            if first_value != value:
                message = f"{kind}.{id_field} {value!r} does not match {first}.{id_field} "
                message += repr(first_value)
                error = {"loc": (kind, id_field), "input": value, "ctx": {"error": message}}
                raise ValidationError.from_exception_data(
                    "Facts", [{"type": "value_error", **error}]
                )


def load_schema(data: Any) -> FactSchema:
    """The schema of a parsed facts.yaml; raises pydantic.ValidationError."""
    return FactSchema(kinds=FactsFile.model_validate(data).facts)
