"""One help-centre article, as loaded from Markdown front matter or rendered from rules."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

ArticleId = Annotated[str, Field(pattern=r"^KB-[A-Z0-9-]+$")]


class Article(BaseModel):
    """An article: ``answer`` is the short reference answer, ``questions`` how customers ask."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: ArticleId
    title: str
    category: str
    tags: list[str] = []
    answer: str
    questions: list[str] = []
    required: list[str] = []
    """Steps of the answer no reply may leave out (a safety instruction: "do not charge
    it"), each written as it stands in the answer."""
    body: str
    source: str = ""

    @model_validator(mode="after")
    def _required_in_answer(self) -> Article:
        """A required step is a step of the answer; one that is not is a typo that would make
        every reply leave it out."""
        stray = [s for s in self.required if s.lower() not in self.answer.lower()]
        if stray:
            raise ValueError(f"required steps not in the answer: {stray}")
        return self

    @property
    def text(self) -> str:
        """Everything a reader sees: title, body and the summary answer."""
        return f"{self.title}\n{self.body}\n{self.answer}"
