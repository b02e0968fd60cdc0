"""A tool's arguments as a form, read from the tool's JSON schema (no Gradio here).

The web UI (novamart.server.web_ui) shows one input per argument: an enum is a list of
choices, a number starts empty (never 0: a prefilled 0 would be sent as an amount), text
stays empty unless the case already shows the value (its order and customer ids) or the
schema gives a default. Before anything is sent, the form is checked here: a required
argument left empty is named with the values it allows, so a researcher's slip costs no step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["choice", "number", "integer", "text", "long_text", "boolean", "json"]
LONG_TEXT = 200
"""Strings allowed longer than this (a message, a reason, a query) get a multi-line box."""


@dataclass(frozen=True)
class Field:
    """One argument of one tool, as the form shows it."""

    name: str
    kind: Kind
    required: bool
    description: str = ""
    choices: tuple[str, ...] = ()
    default: Any = None

    @property
    def label(self) -> str:
        return f"{self.name} (required)" if self.required else f"{self.name} (optional)"


def _kind(spec: Mapping[str, Any]) -> Kind:
    if spec.get("enum"):
        return "choice"
    types = [spec.get("type")] + [part.get("type") for part in spec.get("anyOf", [])]
    if "boolean" in types:
        return "boolean"
    if "integer" in types:
        return "integer"
    if "number" in types:
        return "number"
    if "object" in types or "array" in types:
        return "json"
    longest = max(
        [spec.get("maxLength", 0)] + [part.get("maxLength", 0) for part in spec.get("anyOf", [])]
    )
    return "long_text" if longest > LONG_TEXT else "text"


def fields_of(schema: Mapping[str, Any]) -> list[Field]:
    """The form of a tool whose input schema is ``schema``, in the schema's order."""
    required = set(schema.get("required", []))
    return [
        Field(
            name=name,
            kind=_kind(spec),
            required=name in required,
            description=str(spec.get("description", "")),
            choices=tuple(str(choice) for choice in spec.get("enum", [])),
            default=spec.get("default"),
        )
        for name, spec in schema.get("properties", {}).items()
    ]


def initial_value(field: Field, case: Mapping[str, Any]) -> Any:
    """What the input shows before the researcher types: a value the case already shows
    under the argument's name, else the schema's default, else nothing."""
    shown = case.get(field.name)
    if shown not in (None, "", [], {}) and field.kind in ("text", "long_text"):
        return shown
    if shown not in (None, "") and field.kind == "choice" and str(shown) in field.choices:
        return str(shown)
    return field.default


def json_template(field: Field, case: Mapping[str, Any]) -> str:
    """A hint for a JSON argument: extract_info's fields are the case's requested ones."""
    keys = case.get("requested_fields") or []
    if field.name == "fields" and keys:
        return json.dumps({key: "..." for key in keys})
    return "{}"


class FormProblem(ValueError):
    """The form cannot be sent as it is; the message says what to fill in and with what."""


def _allowed(field: Field) -> str:
    return f" (one of: {', '.join(field.choices)})" if field.choices else ""


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _number(field: Field, value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise FormProblem(f"{field.name} must be a number, not {value!r}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise FormProblem(f"{field.name} must be a finite number, not {value!r}")
    return number


def _converted(field: Field, value: Any) -> Any:
    if field.kind == "integer":
        number = _number(field, value)
        if number != int(number):
            raise FormProblem(f"{field.name} must be a whole number, not {value!r}")
        return int(number)
    if field.kind == "number":
        return _number(field, value)
    if field.kind == "json":
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise FormProblem(f"{field.name} must be JSON: {exc.msg} (at {exc.pos})") from exc
    if field.kind == "choice" and str(value) not in field.choices:
        raise FormProblem(f"{field.name} cannot be {value!r}{_allowed(field)}")
    return value


def arguments_from(fields: Sequence[Field], values: Mapping[str, Any]) -> dict[str, Any]:
    """The call's arguments from the form's ``values`` (by argument name): empty optional
    ones are left out; an empty required one is a FormProblem naming what it allows."""
    missing = [f for f in fields if f.required and _empty(values.get(f.name))]
    if missing:
        wanted = "; ".join(f"{f.name}{_allowed(f)}" for f in missing)
        raise FormProblem(f"fill in {wanted}")
    return {f.name: _converted(f, values[f.name]) for f in fields if not _empty(values.get(f.name))}


def explain_error(error: Mapping[str, Any], fields: Sequence[Field]) -> str:
    """A tool's refusal in one line, with the allowed values of every argument it names."""
    message = str(error.get("message", ""))
    named = [f for f in fields if f.choices and f"{f.name}:" in message]
    extra = "".join(f"; {f.name} is one of: {', '.join(f.choices)}" for f in named)
    return f"{error.get('code', 'error')}: {message}{extra}"
