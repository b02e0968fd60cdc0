"""The log-line formatter never breaks a line and never prints -0.00."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from novamart.evaluation import logformat
from tests.inference.loglines import END, START, STEP


@given(st.text(), st.text(), st.floats(-1, 1), st.booleans())
def test_any_text_stays_on_one_well_formed_line(
    message: str, error: str, reward: float, done: bool
) -> None:
    action = logformat.describe_action("respond_to_customer", {"message": message})
    line = logformat.step_line(3, action, reward, done, error)
    assert len(line.splitlines()) == 1
    assert STEP.fullmatch(line), line
    assert "-0.00" not in line


def test_lines() -> None:
    assert START.fullmatch(logformat.start_line("easy_refund", "Qwen/Qwen2.5-72B-Instruct"))
    step = logformat.step_line(
        1,
        logformat.describe_action("lookup_order", {"order_id": "O\n1"}),
        -0.0001,
        False,
        "bad\u2028thing\r\nhere",
    )
    assert step == (
        '[STEP] step=1 action=lookup_order({"order_id":"O\\n1"}) reward=0.00 done=false '
        "error=bad thing here"
    )
    end = logformat.end_line(False, 2, 0.12345, [0.125, -0.3])
    assert end == "[END] success=false steps=2 score=0.123 rewards=0.12,-0.30"
    assert END.fullmatch(end)
    assert END.fullmatch(logformat.end_line(False, 0, 0.0, []))
