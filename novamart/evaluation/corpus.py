"""The labeled message corpus (tests/language/corpus/*.yaml) as typed records: what the
reader's precision and recall (tests/language/measure.py) and the LLM judge's agreement
(``novamart judge-agreement``) are measured on.

The labels are the ground truth message understanding is measured against, so their shape
is strict: a typo in a label must fail loudly, not count as "no claim". The vocabulary
(resolution names, fact refs, their types) is the rulebook's, read from rules/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from novamart.tools.args import MESSAGE_LIMIT

CORPUS_DIR = Path(__file__).resolve().parents[2] / "tests" / "language" / "corpus"
"""In the repository (an installed package has no corpus: name one)."""
VOICES = frozenset({"terse", "formal", "warm", "llm_markdown", "non_native", "recovery"})
CLASSES = frozenset(
    {
        "negated",
        "no_worries",
        "reversals",
        "stuffing",
        "contradictions",
        "hedged",
        "non_claims",
        "refusals",
        "paraphrases",
        "courtesy",
        "disguised",
        "foreign",
        "consequential",
        "fail_closed",
    }
)
"""The adversarial or tricky classes; every file is a voice or one of these."""

Stance = Literal["asserted", "offered", "denied"]
Op = Literal["==", "!=", "<", "<=", ">", ">="]


class _Label(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ResolutionClaim(_Label):
    resolution: StrictStr
    stance: Stance
    amount: Annotated[StrictFloat | StrictInt, Field(gt=0)] | None = None


class FactClaim(_Label):
    ref: Annotated[StrictStr, Field(pattern=r"^[a-z_]+\.[a-z_]+$")]
    op: Op = "=="
    value: StrictBool | StrictInt | StrictFloat | StrictStr


class LabeledMessage(_Label):
    id: Annotated[StrictStr, Field(pattern=r"^[a-z_]+-\d{3}$")]
    text: Annotated[StrictStr, Field(min_length=1, max_length=MESSAGE_LIMIT)]
    resolutions: Annotated[list[ResolutionClaim], Field(min_length=1)] | None = None
    facts: Annotated[list[FactClaim], Field(min_length=1)] | None = None
    secret_request: StrictBool
    courteous: StrictBool
    rude: StrictBool
    unreadable: StrictBool = False
    """Some clause is not in English (issue 18)."""
    unverifiable: StrictBool = False
    """It claims something of consequence no rule can check: a benefit no rule grants, or
    a clause not in English carrying an amount or a value word."""
    note: Annotated[StrictStr, Field(min_length=1)] | None = None

    @property
    def group(self) -> str:
        """The voice or class: the file it lives in, which its id names."""
        return self.id.rsplit("-", 1)[0]


def corpus_files(directory: Path = CORPUS_DIR) -> list[Path]:
    return sorted(directory.glob("*.yaml"))


def load_file(path: Path) -> list[LabeledMessage]:
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(entries, list):
        raise ValueError(f"{path.name}: a corpus file is one YAML list")
    return [LabeledMessage.model_validate(entry) for entry in entries]


def load_corpus(directory: Path = CORPUS_DIR) -> list[LabeledMessage]:
    """Every labeled message, file by file in name order."""
    return [message for path in corpus_files(directory) for message in load_file(path)]


def split(corpus: list[LabeledMessage], part: str) -> list[LabeledMessage]:
    """The development half (even ids, whose misses were read while building the reader) or
    the held-out half (odd ids, never looked at): the held-out figures say how it
    generalises."""
    parity = 0 if part == "dev" else 1
    return [m for m in corpus if int(m.id.rsplit("-", 1)[1]) % 2 == parity]
