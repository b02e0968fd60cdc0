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

    def score(self, query_terms: list[str], doc_id: str) -> float:
        counts, length = self.terms[doc_id], self.lengths[doc_id]
        total = 0.0
        for term in set(query_terms):
            tf = counts.get(term, 0)
            if tf:
                norm = tf + self.k1 * (1 - self.b + self.b * length / self.avg_length)
                total += self.idf[term] * tf * (self.k1 + 1) / norm
        return total

    def search(self, query: str, k: int = 3) -> list[Hit]:
        """The ``k`` best documents with a positive score, best first."""
        terms = tokens(query)
        scored = [(self.score(terms, d), d) for d in self.terms]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))
        return [Hit(id=d, score=round(s, 4)) for s, d in ranked[:k]]
