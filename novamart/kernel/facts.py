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
from novamart.kernel.recent import RecentlyUsed

FieldType = Literal["id", "integer", "number", "money", "bool", "choice", "text"]
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
        if self.type == "text":
            return Annotated[str, Field(max_length=MAX_TEXT, strict=True)]
        if self.type == "bool":
            return StrictBool
        if self.type == "choice":
            return Literal[self.values]  # type: ignore[valid-type]
        lo, hi = self.range or (None, None)
        base = StrictInt if self.type == "integer" else float
        return Annotated[base, Field(ge=lo, le=hi, allow_inf_nan=False, strict=True)]


MAX_TEXT = 500
"""Characters a text field holds (a reason given in a call's arguments)."""
MAX_MEMBERS = 50
"""Facts one collection may hold in a case (a customer's orders, an order's items)."""
RECORDS_KEPT = 4_096
"""Records ``FactSchema.built`` keeps checked (a few KB each at most)."""


class KindSpec(_Spec):
    """One fact kind: the tool that reveals it (None: known from the customer's message).

    ``many``: a case may hold several facts of this kind (an order's items); its first id
    field identifies each, and its other id fields refer to the kinds they name (an item's
    ``order_id`` is the order's)."""

    revealed_by: Name | None
    many: bool = False
    finding: bool = False
    """A check's result (a technician's finding): only its tool can say it, so a message
    stating it before the tool ran claims the check itself (the customer may report a
    symptom, never the result)."""
    fields: dict[Name, FieldSpec]

    @model_validator(mode="after")
    def _one_id(self) -> KindSpec:
        if self.finding and self.revealed_by is None:
            raise ValueError("a finding (finding: true) is revealed by its check's tool")
        ids = [n for n, f in self.fields.items() if f.type == "id"]
        if self.many and not ids:
            raise ValueError(
                "a collection (many: true) needs a field of type id first (each fact's "
                "identifier); further id fields refer to other kinds"
            )
        if not self.many and len(ids) != 1:
            raise ValueError(
                "a fact kind needs exactly one field of type id (its identifier); a kind "
                "holding several facts that refer to others says many: true"
            )
        return self

    @cached_property
    def id_field(self) -> str:  # read on every check of a fact set: found once
        return next(n for n, f in self.fields.items() if f.type == "id")

    @cached_property
    def references(self) -> tuple[str, ...]:
        """The id fields after the identifier: each refers to the kind it names."""
        return tuple(n for n, f in self.fields.items() if f.type == "id")[1:]


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
            self._fields = {k: fields[k] for k in sorted(fields) if fields[k] is not None}

    def with_value(self, field: str, value: Any) -> FactRecord:
        """This record with ``field`` set to ``value``: itself when it holds that already (its
        hash is kept), else a copy in the same field order (re-sorted for a new field)."""
        old = self._fields.get(field)
        if old is None or value is None:
            return FactRecord({**self._fields, field: value})
        if type(old) is type(value) and old == value:
            return self
        copy = FactRecord(self)
        copy._fields, copy._hash = {**self._fields, field: value}, None
        return copy

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

    A collection kind (``many: true``) holds a list: ``Facts(item=[{...}, {...}])``. One of
    its facts may be in focus (``focus``): the item being decided, which every other reading
    (``record``, ``value``, ``present``) sees as the kind's single fact, while quantifiers
    (``all item: ...``) read the whole collection.
    """

    __slots__ = ("_checked", "_checked_as", "_focus", "_hash", "_kinds", "_many")

    def __init__(self, **kinds: Mapping[str, Any] | Collection[Mapping[str, Any]] | None) -> None:
        self._kinds = {
            k: FactRecord(v)  # type: ignore[arg-type]
            for k, v in sorted(kinds.items())
            if v is not None and not isinstance(v, list | tuple)
        }
        self._many: dict[str, tuple[FactRecord, ...]] = {
            k: tuple(FactRecord(m) for m in v)
            for k, v in sorted(kinds.items())
            if isinstance(v, list | tuple)
        }
        self._focus: dict[str, int] = {}
        self._hash: int | None = None
        self._checked: FactSchema | None = None
        """The schema that checked these facts (defaults filled in), so no one checks twice."""
        self._checked_as: tuple[FactSchema, Facts] | None = None
        """Unchecked facts: their checked copy, once a schema made it (they never change)."""

    def checked_by(self, schema: FactSchema) -> bool:
        """Whether ``schema`` checked these facts (each value of its declared type, so facts
        equal to them hold the same values, not 1 for 1.0)."""
        return self._checked is schema

    def present(self) -> dict[str, FactRecord]:
        """The kinds that are known, by name (a collection by its fact in focus)."""
        if not self._focus:
            return dict(self._kinds)
        focused = {k: self._many[k][i] for k, i in self._focus.items()}
        return dict(sorted({**self._kinds, **focused}.items()))

    def record(self, kind: str) -> FactRecord | None:
        record = self._kinds.get(kind)
        if record is None and kind in self._focus:
            return self._many[kind][self._focus[kind]]
        return record

    def value(self, kind: str, field: str) -> Any:
        """The observed value of ``kind.field``, or None when unknown."""
        record = self.record(kind)
        return None if record is None else record.get(field)

    def in_focus(self) -> tuple[str, ...]:
        """The collection kinds whose member is in focus (a decision per item)."""
        return tuple(self._focus)

    def collection(self, kind: str) -> tuple[FactRecord, ...] | None:
        """Every fact of a collection kind, or None while none is known."""
        return self._many.get(kind)

    def collections(self) -> dict[str, tuple[FactRecord, ...]]:
        return dict(self._many)

    def focus(self, kind: str, index: int) -> Facts:
        """These facts with member ``index`` of collection ``kind`` in focus."""
        focused = self._copy()
        focused._focus = {**self._focus, kind: index}
        return focused

    def unfocused(self) -> Facts:
        """These facts with no member in focus (itself when none is)."""
        if not self._focus:
            return self
        copy = self._copy()
        copy._focus = {}
        return copy

    def origin(self) -> object:
        """What these facts share with their copies in focus (one order's items decided in
        turn), and with no other fact set: work that reads no focused member is done once."""
        return self._kinds

    def _copy(self) -> Facts:
        copy = Facts()
        copy._kinds, copy._many, copy._focus = self._kinds, self._many, dict(self._focus)
        copy._checked = self._checked
        return copy

    def only(self, kinds: Collection[str]) -> Facts:
        """The known kinds among ``kinds``; checked if these facts were (each kind is checked
        on its own, and a part of consistent links is consistent)."""
        part = Facts(
            **{k: r for k, r in self._kinds.items() if k in kinds},
            **{k: list(m) for k, m in self._many.items() if k in kinds},
        )
        part._focus = {k: i for k, i in self._focus.items() if k in kinds}
        part._checked = self._checked
        return part

    def with_kind(self, kind: str, fields: Mapping[str, Any]) -> Facts:
        many = {k: list(m) for k, m in self._many.items() if k != kind}
        changed = Facts(**{**self._kinds, **many, kind: fields})
        changed._focus = {k: i for k, i in self._focus.items() if k != kind}
        return changed

    def as_dict(self) -> dict[str, Any]:
        singles: dict[str, Any] = {kind: dict(r.items()) for kind, r in self._kinds.items()}
        many = {kind: [dict(m.items()) for m in members] for kind, members in self._many.items()}
        return dict(sorted({**singles, **many}.items())) if many else singles

    def __hash__(self) -> int:
        if self._hash is None:  # decisions are memoised by fact set: hashed many times
            self._hash = hash(tuple(self._kinds.items()))
            if self._many or self._focus:
                self._hash ^= hash((tuple(self._many.items()), tuple(self._focus.items())))
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Facts)
            and self._kinds == other._kinds
            and self._many == other._many
            and self._focus == other._focus
        )

    def __repr__(self) -> str:
        return f"Facts({self.as_dict()!r})"


Flag = tuple[str, str, Collection[str]]
"""A collection kind, one of its true/false fields, and the ids of the members it is true of."""


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
    def _kind_models(self) -> dict[str, type[BaseModel]]:
        """Each kind's strict model (one fact of it)."""
        models = {}
        for kind, spec in self.kinds.items():
            fields: dict[str, Any] = {}
            for name, f in spec.fields.items():
                if f.type == "id":
                    fields[name] = (f.annotation(), ...)
                else:
                    fields[name] = (f.annotation() | None, f.default)
            config = ConfigDict(extra="forbid", frozen=True)
            models[kind] = create_model(kind, __config__=config, **fields)
        return models

    @cached_property
    def _model(self) -> type[BaseModel]:
        kinds = {}
        for kind, model in self._kind_models.items():
            if self.kinds[kind].many:  # a list of facts; a single one stands for a list of one
                members = Annotated[list[model], Field(max_length=MAX_MEMBERS)]  # type: ignore[valid-type]
                kinds[kind] = (members | model | None, None)
            else:
                kinds[kind] = (model | None, None)
        model = create_model("Facts", __config__=ConfigDict(extra="forbid"), **kinds)
        return model

    @cached_property
    def _records(self) -> RecentlyUsed[tuple, FactRecord]:
        """Records ``built`` checked, by kind and raw fields (with their types)."""
        return RecentlyUsed(RECORDS_KEPT)

    def built(self, raw: Mapping[str, Any]) -> Facts:
        """What ``validate(raw)`` gives, for facts a generator builds from its own world
        (every kind a list or a record of plain values): each record is checked once and
        then shared (a world's cases repeat its customer, orders, payments and items from one
        request to the next, and a shared record's hash is computed once). Anything the
        shortcut cannot read (an unknown kind, an unhashable or invalid value, too many
        members) is validated as a whole, so errors read as ``validate``'s."""
        try:
            kinds: dict[str, Any] = {}
            for kind, value in raw.items():
                if not self.kinds[kind].many:
                    kinds[kind] = self._record(kind, value)
                elif len(value) <= MAX_MEMBERS:
                    kinds[kind] = [self._record(kind, m) for m in value]
                else:
                    return self.validate(raw)
        except (KeyError, TypeError, AttributeError, ValidationError):
            return self.validate(raw)
        facts = Facts(**kinds)
        self._check_links(facts)
        facts._checked = self
        return facts

    def checked_record(self, kind: str, raw: Mapping[str, Any]) -> FactRecord:
        """One single kind's record, checked as ``built`` checks it (and shared the same way);
        raises pydantic.ValidationError."""
        return self._record(kind, raw)

    def _record(self, kind: str, raw: Mapping[str, Any]) -> FactRecord:
        model = self._kind_models[kind]
        return self._records.get(
            (kind, tuple(raw.items()), tuple(map(type, raw.values()))),  # 1 is not 1.0
            lambda: FactRecord(model.model_validate(raw).model_dump()),
        )

    def validate(self, raw: Mapping[str, Any]) -> Facts:
        """Untyped facts (JSON) checked strictly; raises pydantic.ValidationError."""
        checked = self._model.model_validate(raw)
        kinds: dict[str, Any] = {}
        for kind, spec in self.kinds.items():
            value = getattr(checked, kind)
            if value is None:
                continue
            if spec.many:
                members = value if isinstance(value, list) else [value]
                kinds[kind] = [m.model_dump() for m in members]
            elif value:
                kinds[kind] = value.model_dump()
        facts = Facts(**kinds)
        self._check_links(facts)
        facts._checked = self
        return facts

    def updated(self, facts: Facts, kinds: Mapping[str, Any], flag: Flag | None = None) -> Facts:
        """``facts`` with the kinds of ``kinds`` (untyped, as ``validate`` takes them) put in
        their place, checked: what validating the whole would give, but when this schema
        checked ``facts`` already only the kinds given are validated again (a call's request
        on a case: the request and the members it selects). ``flag`` (kind, field, ids): that
        collection's members with their true/false ``field`` set, true for the ids named; on
        checked facts they are checked by construction (a checked member and a bool in a
        bool field), so a call's selection validates no member again."""
        if flag is not None and (facts._checked is not self or not self._flaggable(flag)):
            raw = [dict(m) for m in self._flagged(facts, flag)]
            return self.updated(facts, {**kinds, flag[0]: raw})
        if facts._checked is not self:
            return self.validate({**facts.as_dict(), **kinds})
        merged: dict[str, Any] = {**facts._kinds, **facts._many}
        if flag is not None:
            merged[flag[0]] = self._flagged(facts, flag)
        rest: dict[str, Any] = {}
        for kind, value in kinds.items():
            record = self._known_record(kind, value)
            if record is None:
                rest[kind] = value
            else:
                merged[kind] = record
        checked = self._model.model_validate(rest) if rest else None
        for kind in rest:
            value = getattr(checked, kind)
            if value is None:
                merged.pop(kind, None)
            elif self.kinds[kind].many:
                members = value if isinstance(value, list) else [value]
                merged[kind] = [m.model_dump() for m in members]
            else:
                merged[kind] = value.model_dump()
        result = Facts(**merged)
        self._check_links(result)
        result._checked = self
        return result

    def _known_record(self, kind: str, value: Any) -> FactRecord | None:
        """A single kind's record checked through ``_record`` (a call's request recurs from
        one candidate to the next); None where that does not apply or the value is invalid
        (validating it with the rest then says why, as ``validate`` would)."""
        spec = self.kinds.get(kind)
        if spec is None or spec.many or not isinstance(value, Mapping):
            return None
        try:
            return self._record(kind, value)
        except (TypeError, ValidationError):
            return None

    def _flaggable(self, flag: Flag) -> bool:
        """Whether ``flag`` names a true/false field of a collection kind."""
        spec = self.kinds.get(flag[0])
        field = None if spec is None else spec.fields.get(flag[1])
        return spec is not None and spec.many and field is not None and field.type == "bool"

    def _flagged(self, facts: Facts, flag: Flag) -> list[FactRecord]:
        kind, field, ids = flag
        key = self.kinds[kind].id_field
        return [m.with_value(field, m[key] in ids) for m in facts.collection(kind) or ()]

    def check(self, facts: Facts) -> Facts:
        """``facts`` built in code, checked the same way (and defaults filled in); facts this
        schema checked already are returned as they are (checking them again changes nothing)."""
        if facts._checked is self:
            return facts
        if facts._checked_as is not None and facts._checked_as[0] is self:
            return facts._checked_as[1]
        checked = self.validate(facts.as_dict())
        if facts._focus:
            checked = checked._copy()
            checked._focus = dict(facts._focus)
        facts._checked_as = (self, checked)
        return checked

    def _check_links(self, facts: Facts) -> None:
        """Kinds that share an identifier field (an order and its defect check) must agree;
        a collection's facts have distinct identifiers, and each reference of theirs names
        the fact of that kind in the case (an item's order_id is the order's)."""
        seen: dict[str, tuple[str, Any]] = {}
        for kind, record in facts._kinds.items():
            id_field = self.kinds[kind].id_field
            value = record.get(id_field)
            first, first_value = seen.setdefault(id_field, (kind, value))
            if first_value != value:
                _link_error(kind, id_field, value, f"{first}.{id_field} {first_value!r}")
        for kind, members in facts.collections().items():
            spec = self.kinds[kind]
            id_field, references = spec.id_field, spec.references
            keys = [m.get(id_field) for m in members]
            if len(set(keys)) != len(keys):
                index = next(i for i, k in enumerate(keys) if keys.index(k) != i)
                other = "another of its kind (ids are unique)"
                _link_error(kind, id_field, keys[index], other, index)
            for index, member in enumerate(members):
                for ref in references:
                    if ref in seen and member.get(ref) != seen[ref][1]:
                        first, first_value = seen[ref]
                        other = f"{first}.{ref} {first_value!r}"
                        _link_error(kind, ref, member.get(ref), other, index)


def _link_error(kind: str, field: str, value: Any, other: str, index: int | None = None) -> None:
    """A ValidationError located at the field (of member ``index`` of a collection)."""
    message = f"{kind}.{field} {value!r} does not match {other}"
    loc = (kind, field) if index is None else (kind, index, field)
    error = {"loc": loc, "input": value, "ctx": {"error": message}}
    raise ValidationError.from_exception_data("Facts", [{"type": "value_error", **error}])


def load_schema(data: Any) -> FactSchema:
    """The schema of a parsed facts.yaml; raises pydantic.ValidationError."""
    return FactSchema(kinds=FactsFile.model_validate(data).facts)
