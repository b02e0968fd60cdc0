"""An analyst's edit of the rule files, for tests that check a task follows the rules."""

from __future__ import annotations

import shutil
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def escalation_without(tmp_path: Path, sign: str, *, cut_from: str | None = None) -> Path:
    """A copy of rules/ whose mandatory_escalation no longer tests ``sign``; ``cut_from``
    drops the file's tail from that text on (an example that needs the sign)."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES, rules)
    path = rules / "escalation.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index(f"  - name: {sign}\n    test: ticket.{sign} == true\n")
    end = text.index("\n", text.index("    reason:", start)) + 1
    text = text[:start] + text[end:]
    if cut_from is not None:
        text = text[: text.index(cut_from)]
    path.write_text(text, encoding="utf-8")
    return rules
