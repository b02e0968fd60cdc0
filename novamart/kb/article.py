"""One help-centre article, as loaded from Markdown front matter or rendered from rules."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

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
    body: str
    source: str = ""

    @property
    def text(self) -> str:
        """Everything a reader sees: title, body and the summary answer."""
        return f"{self.title}\n{self.body}\n{self.answer}"
