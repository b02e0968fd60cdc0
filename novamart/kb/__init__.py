"""NovaMart's help-centre knowledge base: readable article files plus policy articles
rendered from the rules, searchable with BM25."""

from __future__ import annotations

import threading
from collections import OrderedDict

from novamart.kb.article import Article
from novamart.kb.search import Hit
from novamart.kb.store import KnowledgeBase, KnowledgeBaseError

KEPT_VERSIONS = 8
_rendered: OrderedDict[str, KnowledgeBase] = OrderedDict()
_lock = threading.Lock()


def default_kb() -> KnowledgeBase:
    """The knowledge base of the rules the default kernel serves now: its policy articles
    follow a reload (RULES_DIR, ``--rules-dir``, the admin route). Built once per rules
    version; the last few versions are kept."""
    from novamart.kernel import default_kernel

    rulebook = default_kernel().rulebook
    with _lock:
        kb = _rendered.get(rulebook.version)
        if kb is None:
            kb = _rendered[rulebook.version] = KnowledgeBase.load(rulebook)
            while len(_rendered) > KEPT_VERSIONS:
                _rendered.popitem(last=False)
        return kb


__all__ = ["Article", "Hit", "KnowledgeBase", "KnowledgeBaseError", "default_kb"]
