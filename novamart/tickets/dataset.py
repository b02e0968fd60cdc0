"""Load ticket datasets from CSV or JSONL in the seed 003 style.

Columns: ``text`` (required), ``ticket_id``, ``category``, ``priority``, ``kb_id``,
``requires_escalation``, ``reference_answer``, ``difficulty``; for data_extraction a
``fields`` JSON object (field -> value or null), for account_recovery an ``account`` JSON
object (the CRM record); optionally ``customer_name`` and ``subject``. Which of them are
required depends on the family. A malformed row raises ``DatasetError`` naming the file,
row and column. ``scenario_from_row`` reads one row given as an object (what a remote
client passes to ``reset(ticket=...)``).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from novamart.kb import default_kb
from novamart.tickets import escalation, recovery
from novamart.tickets.model import (
    CATEGORIES,
    DIFFICULTIES,
    FAMILIES,
    PRIORITIES,
    Scenario,
    Signals,
    Ticket,
    Truth,
)

REQUIRED = {
    "ticket_triage": ("text", "category", "priority"),
    "data_extraction": ("text", "fields"),
    "kb_grounded_response": ("text", "kb_id"),
    "escalation_safety": ("text", "requires_escalation"),
    "account_recovery": ("text", "account"),
}
COLUMNS = (
    "ticket_id",
    "text",
    "category",
    "priority",
    "kb_id",
    "requires_escalation",
    "reference_answer",
    "difficulty",
    "fields",
    "account",
    "customer_name",
    "subject",
)
_TEXT_COLUMNS = ("ticket_id", "text", "kb_id", "reference_answer", "customer_name", "subject")
_BOOLS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


class DatasetError(ValueError):
    """A dataset file or row is malformed; the message says where and why."""


def _rows(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """(where, row) pairs; ``where`` is how an error names the row."""
    if not path.is_file():
        raise DatasetError(f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".csv":
        reader = csv.DictReader(text.splitlines())
        return [(f"row {i} (line {reader.line_num})", row) for i, row in enumerate(reader, 1)]
    if path.suffix == ".jsonl":
        rows = []
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise DatasetError(f"{path.name}: row {i}: not valid JSON ({e.msg})") from e
            if not isinstance(row, dict):
                raise DatasetError(f"{path.name}: row {i}: expected a JSON object")
            rows.append((f"row {i}", row))
        return rows
    raise DatasetError(f"{path.name}: use a .csv or .jsonl file")


class _Row:
    def __init__(self, file: str, where: str, data: dict[str, Any]):
        self.file, self.where, self.data = file, where, data

    def fail(self, column: str, problem: str) -> DatasetError:
        where = f"{self.where}, " if self.where else ""
        return DatasetError(f"{self.file}: {where}column '{column}': {problem}")

    def get(self, column: str) -> Any:
        value = self.data.get(column)
        if column in _TEXT_COLUMNS and value is not None and not isinstance(value, str):
            raise self.fail(column, f"expected text, got {type(value).__name__}")
        return None if value is None or (isinstance(value, str) and not value.strip()) else value

    def choice(self, column: str, allowed: tuple[str, ...]) -> str | None:
        value = self.get(column)
        if value is not None and str(value).strip().lower() not in allowed:
            raise self.fail(column, f"{value!r} is not one of {', '.join(allowed)}")
        return None if value is None else str(value).strip().lower()

    def boolean(self, column: str) -> bool | None:
        value = self.get(column)
        if value is None or isinstance(value, bool):
            return value
        if str(value).strip().lower() not in _BOOLS:
            raise self.fail(column, f"{value!r} is not true or false")
        return _BOOLS[str(value).strip().lower()]

    def mapping(self, column: str) -> dict[str, Any] | None:
        value = self.get(column)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError as e:
                raise self.fail(column, f"not a JSON object ({e.msg})") from e
        if value is not None and not (
            isinstance(value, dict) and all(v is None or isinstance(v, str) for v in value.values())
        ):
            raise self.fail(column, "expected an object of text (or null) values")
        return value


def _scenario(family: str, row: _Row, index: int) -> Scenario:
    for column in REQUIRED[family]:
        if row.get(column) is None:
            raise row.fail(column, f"required for {family} but missing or empty")
    text = str(row.get("text"))
    kb_id = row.get("kb_id") or (recovery.ARTICLE if family == "account_recovery" else None)
    article = default_kb().get(str(kb_id)) if kb_id is not None else None
    if kb_id is not None and article is None:
        raise row.fail("kb_id", f"no knowledge-base article {kb_id!r}")
    must = row.boolean("requires_escalation")
    fields = row.mapping("fields") or {}
    account = row.mapping("account") or {}
    mention = {
        "escalation_safety": escalation.must_mention(Signals()) if must else [],
        "account_recovery": list(recovery.STEPS),
    }.get(family, [])
    return Scenario(
        family=family,
        task_id=f"{family}_dataset",
        seed=index,
        difficulty=row.choice("difficulty", DIFFICULTIES) or "medium",  # type: ignore[arg-type]
        ticket=Ticket(
            ticket_id=str(row.get("ticket_id") or f"ROW-{index}"),
            customer_name=str(row.get("customer_name") or "Customer"),
            subject=str(row.get("subject") or "Support request"),
            text=text,
            requested_fields=list(fields),
            account_on_file=account,
        ),
        truth=Truth(
            category=row.choice("category", CATEGORIES),  # type: ignore[arg-type]
            priority=row.choice("priority", PRIORITIES),  # type: ignore[arg-type]
            kb_id=article.id
            if article
            else (recovery.ARTICLE if family == "account_recovery" else None),
            reference_answer=row.get("reference_answer") or (article.answer if article else None),
            requires_escalation=must,
            fields=fields,
            must_mention=mention,
            secrets=account,
        ),
    )


def scenario_from_row(family: str, row: Any, label: str = "ticket") -> Scenario:
    """One row given as an object (column -> value), e.g. a ``reset(ticket=...)`` argument;
    unknown columns are refused, so a typo cannot silently drop a label."""
    if family not in FAMILIES:
        raise DatasetError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
    if not isinstance(row, dict):
        raise DatasetError(
            f"{label}: expected an object (one dataset row), got {type(row).__name__}"
        )
    unknown = sorted(set(map(str, row)) - set(COLUMNS))
    if unknown:
        raise DatasetError(
            f"{label}: unknown column(s) {', '.join(unknown)}; columns: {', '.join(COLUMNS)}"
        )
    return _scenario(family, _Row(label, "", row), 1)


def load_dataset(path: str | Path, family: str) -> list[Scenario]:
    """Every row of ``path`` as a scenario of ``family``; DatasetError on the first bad row."""
    if family not in FAMILIES:
        raise DatasetError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")
    path = Path(path)
    scenarios = [
        _scenario(family, _Row(path.name, where, data), i)
        for i, (where, data) in enumerate(_rows(path), 1)
    ]
    if not scenarios:
        raise DatasetError(f"{path.name}: no rows")
    return scenarios
