"""NovaMart's help-centre knowledge base: readable article files plus policy articles
rendered from the rules, searchable with BM25."""

from __future__ import annotations

from functools import lru_cache

from novamart.kb.article import Article
from novamart.kb.search import Hit
from novamart.kb.store import KnowledgeBase, KnowledgeBaseError


@lru_cache(maxsize=1)
def default_kb() -> KnowledgeBase:
    """The process-wide knowledge base, rendered from the default kernel's rules."""
    from novamart.kernel import default_kernel

    return KnowledgeBase.load(default_kernel().rulebook)


__all__ = ["Article", "Hit", "KnowledgeBase", "KnowledgeBaseError", "default_kb"]
