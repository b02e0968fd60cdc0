"""Copies of the repository's rules/ to edit in a test, the way an analyst edits them."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from novamart.kernel.rulebook import DEFAULT_RULES_DIR


def copy_rules(target: Path) -> Path:
    """A copy of rules/ (the rule files only) at ``target``."""
    shutil.copytree(DEFAULT_RULES_DIR, target, ignore=shutil.ignore_patterns("*.md"))
    return target


def edit(rules: Path, file: str, old: str, new: str) -> None:
    """Replace the first ``old`` in ``file`` (which must hold it) by ``new``."""
    path = rules / file
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not in {file}"
    path.write_text(text.replace(old, new, 1))


def line_of(rules: Path, file: str, needle: str) -> int:
    """The 1-based line of ``file`` holding ``needle``."""
    lines = (rules / file).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def move_window(rules: Path, old: int, new: int) -> None:
    """Change the standard return window from ``old`` to ``new`` days as an analyst would:
    the test, and every example's day moved with the boundary (by new - old, to no less than
    day 0), so the rule set's own examples still pass."""
    path = rules / "standard_return.yaml"
    text = path.read_text().replace(
        f"order.days_since_purchase <= {old}", f"order.days_since_purchase <= {new}"
    )

    def moved(match: re.Match[str]) -> str:
        day = int(match.group(1))
        return f"days_since_purchase: {max(0, day - old + new)}"

    head, _, examples = text.partition("examples:")
    path.write_text(head + "examples:" + re.sub(r"days_since_purchase: (\d+)", moved, examples))


def give_store_credit_a_note(retail: Path, note: str) -> None:
    """rules/retail (at ``retail``) with store_credit given an argument ``note`` declared as
    ``note`` (``{type: text}``: required; with a default: not)."""
    resolutions = retail / "resolutions.yaml"
    text = resolutions.read_text()
    changed = re.sub(
        r"(  store_credit:\n(?:    .*\n)*?    arguments:\n(?:      .*\n)*?      item_ids: .*\n)",
        rf"\1      note: {note}\n",
        text,
        count=1,
    )
    assert changed != text
    resolutions.write_text(changed)
