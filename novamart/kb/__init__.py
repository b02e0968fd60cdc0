"""NovaMart's help-centre knowledge base: readable article files plus policy articles
rendered from the rules, searchable with BM25."""

from __future__ import annotations

from novamart.kb.article import Article
from novamart.kb.search import Hit
from novamart.kb.store import KnowledgeBase, KnowledgeBaseError
from novamart.kernel.recent import RecentlyUsed

KEPT_VERSIONS = 8
_RENDERED: RecentlyUsed[str, KnowledgeBase] = RecentlyUsed(KEPT_VERSIONS)


def default_kb() -> KnowledgeBase:
    """The knowledge base of the rules the default kernel serves now: its policy articles
    follow a reload (RULES_DIR, ``--rules-dir``, the admin route). Built once per rules
    version; the last few versions are kept."""
    from novamart.kernel import default_kernel

    rulebook = default_kernel().rulebook
    return _RENDERED.get(rulebook.version, lambda: KnowledgeBase.load(rulebook))


__all__ = ["Article", "Hit", "KnowledgeBase", "KnowledgeBaseError", "default_kb"]
