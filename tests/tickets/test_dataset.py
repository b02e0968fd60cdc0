"""Loading tickets from CSV and JSONL (seed 003 style), with errors naming row and column."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from novamart.tickets import FAMILIES, DatasetError, TicketSession, load_dataset
from novamart.tickets.agents import AGENTS, run
from novamart.tickets.dataset import DatasetRow, check_columns, read_rows, row_scenario, serves

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


SAMPLE = Path(__file__).resolve().parents[2] / "data" / "tickets_sample"


def test_the_sample_dataset_is_the_same_as_csv_and_jsonl() -> None:
    csv_rows, jsonl_rows = read_rows(f"{SAMPLE}.csv"), read_rows(f"{SAMPLE}.jsonl")
    assert [r.index for r in csv_rows] == [r.index for r in jsonl_rows] == list(range(1, 13))
    assert (csv_rows[2].where, jsonl_rows[2].where) == ("row 3 (line 4)", "row 3")
    served = {family: 0 for family in FAMILIES}
    for from_csv, from_jsonl in zip(csv_rows, jsonl_rows, strict=True):
        check_columns(from_csv)
        for family in FAMILIES:
            assert serves(family, from_csv.data) == serves(family, from_jsonl.data)
            if serves(family, from_csv.data):
                served[family] += 1
                scenario = row_scenario(family, from_csv)
                assert scenario == row_scenario(family, from_jsonl)
                assert run(AGENTS["oracle"], scenario)[0] >= 0.95
    assert all(served.values()), served  # every family has rows to play


def test_a_row_serves_the_families_whose_labels_it_fills_in() -> None:
    row = {"text": "x", "category": "billing", "priority": "", "fields": None}
    assert serves("ticket_triage", row)  # a partial set: the row is malformed, not skipped
    assert not serves("data_extraction", row) and not serves("escalation_safety", row)
    with pytest.raises(DatasetError, match="column 'priority': required for ticket_triage"):
        row_scenario("ticket_triage", DatasetRow("f.csv", 1, "row 1 (line 2)", row))


def test_every_row_has_known_columns_and_a_text(tmp_path: Path) -> None:
    (row,) = read_rows(
        _csv(tmp_path / "t.csv", [["T-1", "Hello", "low"]], ["ticket_id", "text", "prio"])
    )
    with pytest.raises(DatasetError, match=r"t.csv: row 1 \(line 2\): unknown column\(s\) prio"):
        check_columns(row)
    with pytest.raises(DatasetError, match="unknown column"):  # a file row, like reset(ticket=)
        load_dataset(tmp_path / "t.csv", "ticket_triage")
    (row,) = read_rows(_csv(tmp_path / "t.csv", [["T-1", " "]], ["ticket_id", "text"]))
    with pytest.raises(DatasetError, match="row 1 \\(line 2\\), column 'text': required"):
        check_columns(row)


def test_raw_rows_are_numbered_as_errors_name_them(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"text": "a"}\n\n{"text": "b"}\n\n{oops\n')
    with pytest.raises(DatasetError, match=r"t.jsonl: row 3 \(line 5\): not valid JSON"):
        read_rows(path)
    path.write_text('{"text": "a"}\n\n{"text": "b"}\n')
    assert [(r.index, r.where, r.data) for r in read_rows(path)] == [
        (1, "row 1", {"text": "a"}),
        (2, "row 2 (line 3)", {"text": "b"}),
    ]
    surplus = _csv(tmp_path / "s.csv", [["a", "b", "c"]], ["text", "category"])
    with pytest.raises(DatasetError, match=r"row 1 \(line 2\): more values than the header"):
        read_rows(surplus)
