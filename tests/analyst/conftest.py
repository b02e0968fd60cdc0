"""A fresh copy of rules/ for each test that edits rule files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rulefiles import copy_rules


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_rules(tmp_path / "rules")
