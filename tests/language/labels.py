"""The labeled message corpus (tests/language/corpus/*.yaml) as typed records.

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

CORPUS_DIR = Path(__file__).with_name("corpus")
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
    note: Annotated[StrictStr, Field(min_length=1)] | None = None

    @property
    def group(self) -> str:
        """The voice or class: the file it lives in, which its id names."""
        return self.id.rsplit("-", 1)[0]


def corpus_files() -> list[Path]:
    return sorted(CORPUS_DIR.glob("*.yaml"))


def load_file(path: Path) -> list[LabeledMessage]:
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(entries, list):
        raise ValueError(f"{path.name}: a corpus file is one YAML list")
    return [LabeledMessage.model_validate(entry) for entry in entries]


def load_corpus() -> list[LabeledMessage]:
    """Every labeled message, file by file in name order."""
    return [message for path in corpus_files() for message in load_file(path)]
