"""The knowledge base: hand-written articles from ``articles/*.md`` plus policy articles
rendered from the kernel's Rulebook, with a search index over all of them."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

import yaml
from pydantic import ValidationError

from novamart.kb.article import Article
from novamart.kb.policies import render_policy
from novamart.kb.search import Bm25Index, Hit
from novamart.kernel.rulebook import Rulebook

ARTICLES_DIR = Path(__file__).parent / "articles"
POLICY_QUESTIONS = Path(__file__).parent / "policy_questions.yaml"


class KnowledgeBaseError(ValueError):
    """An article file is malformed; the message names the file and the problem."""


def parse_article(path: Path) -> Article:
    """Read one Markdown file with YAML front matter between '---' lines."""
    text = path.read_text(encoding="utf-8")
    parts = text.split("---\n", 2)
    if len(parts) != 3 or parts[0].strip():
        raise KnowledgeBaseError(f"{path.name}: expected '---' front matter, then the body")
    try:
        meta = yaml.safe_load(parts[1]) or {}
    except yaml.YAMLError as e:
        raise KnowledgeBaseError(f"{path.name}: front matter is not valid YAML ({e})") from e
    if not isinstance(meta, dict):
        raise KnowledgeBaseError(f"{path.name}: front matter must be a mapping")
    try:
        return Article(**meta, body=parts[2].strip(), source=path.name)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors())
        raise KnowledgeBaseError(f"{path.name}: {problems}") from e


class KnowledgeBase:
    """All articles by id, and BM25 search over them."""

    def __init__(self, articles: list[Article]):
        self.articles: dict[str, Article] = {}
        for article in articles:
            if article.id in self.articles:
                raise KnowledgeBaseError(f"duplicate article id {article.id} ({article.source})")
            self.articles[article.id] = article

    @classmethod
    def load(cls, rulebook: Rulebook, directory: Path = ARTICLES_DIR) -> KnowledgeBase:
        """The hand-written articles in ``directory`` plus one article per policy."""
        written = [parse_article(p) for p in sorted(directory.glob("*.md"))]
        questions = yaml.safe_load(POLICY_QUESTIONS.read_text(encoding="utf-8")) or {}
        rendered = [
            render_policy(p, rulebook, questions.get(name, []))
            for name, p in rulebook.policies.items()
        ]
        return cls(written + rendered)

    @cached_property
    def index(self) -> Bm25Index:
        return Bm25Index(
            {
                a.id: f"{a.title} {a.title} {' '.join(a.tags)} {a.text}"
                for a in self.articles.values()
            }
        )

    def search(self, query: str, k: int = 3) -> list[Hit]:
        return self.index.search(query, k)

    def get(self, article_id: str) -> Article | None:
        return self.articles.get(article_id.upper())
