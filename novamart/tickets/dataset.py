"""Load ticket datasets from CSV or JSONL in the seed 003 style.

Columns: ``text`` (required), ``ticket_id``, ``category``, ``priority``, ``kb_id``,
``requires_escalation``, ``reference_answer``, ``difficulty``; for data_extraction a
``fields`` JSON object (field -> value or null), for account_recovery an ``account`` JSON
object (the CRM record); optionally ``customer_name`` and ``subject``. Which of them are
required depends on the family. A malformed row raises ``DatasetError`` naming the file,
row and column; so does an unknown column (a typo must not silently drop a label).
``read_rows`` reads a file's raw rows (what ``--dataset`` sends to ``reset(ticket=...)``),
``row_scenario`` checks one of them, ``scenario_from_row`` reads one row given as an object.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
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


@dataclass(frozen=True)
class DatasetRow:
    """One raw row of a dataset file, as ``reset(ticket=...)`` takes it, and where it sits."""

    file: str
    """The file's name, as errors name it."""
    index: int
    """1-based position among the file's rows."""
    where: str
    """How errors name the row: ``row 3 (line 4)``."""
    data: dict[str, Any]


def read_rows(path: str | Path) -> list[DatasetRow]:
    """Every row of a .csv or .jsonl file, unvalidated; DatasetError if the file cannot be
    read as rows (missing, another format, a line that is not a JSON object, no rows)."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"{path}: no such file")
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".csv":
        rows = _csv_rows(path.name, text)
    elif path.suffix == ".jsonl":
        rows = _jsonl_rows(path.name, text)
    else:
        raise DatasetError(f"{path.name}: use a .csv or .jsonl file")
    if not rows:
        raise DatasetError(f"{path.name}: no rows")
    return rows


def _csv_rows(name: str, text: str) -> list[DatasetRow]:
    reader = csv.DictReader(text.splitlines())
    rows = []
    for i, data in enumerate(reader, 1):
        where = f"row {i} (line {reader.line_num})"
        if None in data:  # DictReader files surplus values under the key None
            raise DatasetError(f"{name}: {where}: more values than the header has columns")
        rows.append(DatasetRow(name, i, where, data))
    return rows


def _jsonl_rows(name: str, text: str) -> list[DatasetRow]:
    rows: list[DatasetRow] = []
    for line_number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        i = len(rows) + 1
        where = f"row {i}" if i == line_number else f"row {i} (line {line_number})"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise DatasetError(f"{name}: {where}: not valid JSON ({e.msg})") from e
        if not isinstance(data, dict):
            raise DatasetError(f"{name}: {where}: expected a JSON object")
        rows.append(DatasetRow(name, i, where, data))
    return rows


def _filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


class _Row:
    def __init__(self, file: str, where: str, data: dict[str, Any]) -> None:
        self.file, self.where, self.data = file, where, data

    def fail(self, column: str, problem: str) -> DatasetError:
        where = f"{self.where}, " if self.where else ""
        return DatasetError(f"{self.file}: {where}column '{column}': {problem}")

    def get(self, column: str) -> Any:
        value = self.data.get(column)
        if column in _TEXT_COLUMNS and value is not None and not isinstance(value, str):
            raise self.fail(column, f"expected text, got {type(value).__name__}")
        return value if _filled(value) else None

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
    must = row.boolean("requires_escalation")
    situations = ["takeover" if must else "locked"] if family == "account_recovery" else []
    default_kb_id = recovery.SITUATIONS[situations[0]].kb_id if situations else None
    kb_id = row.get("kb_id") or default_kb_id
    article = default_kb().get(str(kb_id)) if kb_id is not None else None
    if kb_id is not None and article is None:
        raise row.fail("kb_id", f"no knowledge-base article {kb_id!r}")
    fields = row.mapping("fields") or {}
    account = row.mapping("account") or {}
    mention = {
        "escalation_safety": escalation.must_mention(Signals()) if must else [],
        "account_recovery": recovery.needs(situations, bool(must)),
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
            kb_id=article.id if article else default_kb_id,
            reference_answer=row.get("reference_answer") or (article.answer if article else None),
            requires_escalation=must,
            fields=fields,
            must_mention=mention,
            secrets=account,
            situations=situations,
        ),
    )


def _check_family(family: str) -> None:
    if family not in FAMILIES:
        raise DatasetError(f"unknown family {family!r}; known: {', '.join(FAMILIES)}")


def _refuse_unknown_columns(row: _Row) -> None:
    """A typo must not silently drop a label."""
    unknown = sorted(set(map(str, row.data)) - set(COLUMNS))
    if unknown:
        where = f"{row.where}: " if row.where else ""
        raise DatasetError(
            f"{row.file}: {where}unknown column(s) {', '.join(unknown)}; "
            f"columns: {', '.join(COLUMNS)}"
        )


def _checked(family: str, row: _Row, index: int) -> Scenario:
    _refuse_unknown_columns(row)
    return _scenario(family, row, index)


def scenario_from_row(family: str, row: Any, label: str = "ticket") -> Scenario:
    """One row given as an object (column -> value), e.g. a ``reset(ticket=...)`` argument."""
    _check_family(family)
    if not isinstance(row, dict):
        raise DatasetError(
            f"{label}: expected an object (one dataset row), got {type(row).__name__}"
        )
    return _checked(family, _Row(label, "", row), 1)


def row_scenario(family: str, row: DatasetRow) -> Scenario:
    """``row`` of a file as a scenario of ``family``; DatasetError naming file, row, column."""
    _check_family(family)
    return _checked(family, _Row(row.file, row.where, row.data), row.index)


def check_columns(row: DatasetRow) -> None:
    """What every row must get right, whichever family it serves: known columns, a text."""
    checked = _Row(row.file, row.where, row.data)
    _refuse_unknown_columns(checked)
    if checked.get("text") is None:
        raise checked.fail("text", "required but missing or empty")


def serves(family: str, data: dict[str, Any]) -> bool:
    """Whether a row is meant for ``family``: it fills in a label the family grades on
    (beyond the text). A row with only some of them is malformed, not another family's."""
    _check_family(family)
    return any(_filled(data.get(column)) for column in REQUIRED[family] if column != "text")


def load_dataset(path: str | Path, family: str) -> list[Scenario]:
    """Every row of ``path`` as a scenario of ``family``; DatasetError on the first bad row."""
    _check_family(family)
    return [row_scenario(family, row) for row in read_rows(path)]
