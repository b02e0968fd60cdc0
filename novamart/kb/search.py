"""BM25 retrieval in plain Python: small, deterministic, no downloads."""

from __future__ import annotations

import math
from collections import Counter

from pydantic import BaseModel

from novamart.kb.text import tokens


class Hit(BaseModel):
    id: str
    score: float


class Bm25Index:
    """Okapi BM25 over a fixed set of documents (ties broken by document id)."""

    def __init__(self, documents: dict[str, str], k1: float = 1.4, b: float = 0.75):
        self.k1, self.b = k1, b
        self.terms = {doc_id: Counter(tokens(text)) for doc_id, text in documents.items()}
        self.lengths = {doc_id: sum(c.values()) for doc_id, c in self.terms.items()}
        self.avg_length = sum(self.lengths.values()) / max(1, len(self.lengths))
        df = Counter(term for counts in self.terms.values() for term in counts)
        n = len(self.terms)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        # term -> [(doc, its part of the score)]: a search touches only documents that share
        # a term with the query (the parts are score()'s, added in the same order)
        self.postings: dict[str, list[tuple[str, float]]] = {}
        for doc_id, counts in self.terms.items():
            for term, tf in counts.items():
                self.postings.setdefault(term, []).append((doc_id, self._part(term, tf, doc_id)))

    def _part(self, term: str, tf: int, doc_id: str) -> float:
        norm = tf + self.k1 * (1 - self.b + self.b * self.lengths[doc_id] / self.avg_length)
        return self.idf[term] * tf * (self.k1 + 1) / norm

    def search(self, query: str, k: int = 3) -> list[Hit]:
        """The ``k`` best documents with a positive score, best first."""
        totals: dict[str, float] = {}
        for term in set(tokens(query)):
            for doc_id, part in self.postings.get(term, ()):
                totals[doc_id] = totals.get(doc_id, 0.0) + part
        scored = [(s, d) for d, s in totals.items() if s > 0]
        ranked = sorted(scored, key=lambda s: (-s[0], s[1]))
        return [Hit(id=d, score=round(s, 4)) for s, d in ranked[:k]]
