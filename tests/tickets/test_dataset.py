"""Loading tickets from CSV and JSONL (seed 003 style), with errors naming row and column."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from novamart.tickets import DatasetError, TicketSession, load_dataset
from novamart.tickets.agents import AGENTS, run

COLUMNS = [
    "ticket_id",
    "text",
    "category",
    "priority",
    "kb_id",
    "requires_escalation",
    "reference_answer",
]
ROWS = [
    [
        "T-1",
        "My parcel says delivered but it is not here.",
        "shipping",
        "high",
        "KB-032",
        "false",
        "",
    ],
    [
        "T-2",
        "The battery of my phone is swollen.",
        "technical",
        "urgent",
        "KB-050",
        "true",
        "Stop using the device and do not charge it.",
    ],
]


def _csv(path: Path, rows: list[list[str]], columns: list[str] = COLUMNS) -> Path:
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        writer.writerows(rows)
    return path


def test_csv_rows_become_scenarios_for_each_family(tmp_path: Path) -> None:
    path = _csv(tmp_path / "tickets.csv", ROWS)
    triage = load_dataset(path, "ticket_triage")
    assert [s.truth.category for s in triage] == ["shipping", "technical"]
    assert triage[1].truth.priority == "urgent" and triage[0].ticket.ticket_id == "T-1"
    kb = load_dataset(path, "kb_grounded_response")
    assert kb[0].truth.reference_answer.startswith("Wait 24 hours")  # the article's answer
    assert kb[1].truth.reference_answer == "Stop using the device and do not charge it."
    escalation = load_dataset(path, "escalation_safety")
    assert [s.truth.requires_escalation for s in escalation] == [False, True]
    for scenarios in (triage, kb, escalation):
        assert all(run(AGENTS["oracle"], s)[0] >= 0.95 for s in scenarios)


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    return path


def test_jsonl_with_fields_and_account(tmp_path: Path) -> None:
    extraction_rows = [
        {
            "text": "Order NM-123456, mail me at a@b.co",
            "fields": {"order_id": "NM-123456", "email": "a@b.co"},
        }
    ]
    (extraction,) = load_dataset(_jsonl(tmp_path / "e.jsonl", extraction_rows), "data_extraction")
    assert extraction.ticket.requested_fields == ["order_id", "email"]
    assert run(AGENTS["oracle"], extraction)[0] == 1.0
    recovery_rows = [{"text": "I am locked out", "account": {"email": "x@y.com"}}]
    (recovery,) = load_dataset(_jsonl(tmp_path / "r.jsonl", recovery_rows), "account_recovery")
    assert recovery.truth.secrets == {"email": "x@y.com"} and recovery.truth.kb_id == "KB-040"
    assert run(AGENTS["oracle"], recovery)[0] == 1.0


def test_jsonl_missing_or_malformed_objects(tmp_path: Path) -> None:
    rows = [{"text": "a", "fields": {"order_id": "NM-1"}}, {"text": "b"}]
    with pytest.raises(DatasetError, match=r"e\.jsonl: row 2, column 'fields': required"):
        load_dataset(_jsonl(tmp_path / "e.jsonl", rows), "data_extraction")
    rows = [{"text": "a", "fields": {"order_id": 5}}]
    with pytest.raises(DatasetError, match="row 1, column 'fields': expected an object of text"):
        load_dataset(_jsonl(tmp_path / "e.jsonl", rows), "data_extraction")
    with pytest.raises(DatasetError, match="column 'account': not a JSON object"):
        load_dataset(
            _csv(tmp_path / "r.csv", [["locked out", "{oops"]], ["text", "account"]),
            "account_recovery",
        )


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            ["T-3", "text", "refunds", "high", "", "", ""],
            "row 1 (line 2), column 'category': 'refunds' is not one of billing",
        ),
        (["T-3", "text", "billing", "asap", "", "", ""], "column 'priority': 'asap' is not one"),
        (["T-3", "", "billing", "low", "", "", ""], "column 'text': required for ticket_triage"),
        (["T-3", "text", "billing", "low", "KB-999", "", ""], "column 'kb_id': no knowledge-base"),
        (
            ["T-3", "text", "billing", "low", "", "maybe", ""],
            "column 'requires_escalation': 'maybe' is not true or false",
        ),
    ],
)
def test_malformed_csv_row_names_row_and_column(
    tmp_path: Path, row: list[str], message: str
) -> None:
    path = _csv(tmp_path / "bad.csv", [row])
    with pytest.raises(DatasetError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_dataset(path, "ticket_triage")


def test_the_failing_row_is_located_after_good_rows(tmp_path: Path) -> None:
    path = _csv(tmp_path / "bad.csv", [*ROWS, ["T-3", "x", "billing", "soon", "", "", ""]])
    with pytest.raises(DatasetError, match=r"bad.csv: row 3 \(line 4\), column 'priority'"):
        load_dataset(path, "ticket_triage")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("t.txt", "text\nhello\n", "use a .csv or .jsonl file"),
        ("t.jsonl", '{"text": "a"}\n{broken\n', "row 2: not valid JSON"),
        ("t.jsonl", '["a list"]\n', "row 1: expected a JSON object"),
        ("t.csv", "text,category,priority\n", "no rows"),
    ],
)
def test_bad_files_are_clear_errors(tmp_path: Path, name: str, content: str, message: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(DatasetError, match=message):
        load_dataset(path, "ticket_triage")


def test_missing_file_and_unknown_family(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset(tmp_path / "none.csv", "ticket_triage")
    with pytest.raises(DatasetError, match="unknown family 'triage'"):
        load_dataset(tmp_path / "none.csv", "triage")


def test_loaded_scenarios_run_in_a_session(tmp_path: Path) -> None:
    (scenario, _) = load_dataset(_csv(tmp_path / "t.csv", ROWS), "escalation_safety")
    session = TicketSession(scenario)
    out = session.step("respond_to_customer", {"message": "Hello, thanks. Kind regards"})
    assert out.done and 0.0 <= out.score <= 1.0
