"""Benchmark: reading agent messages for their claims (novamart.language), median per message.

Target (issue 10): a 4,000-character message read in under 2 ms. Three inputs: a dense
4,000-character reply (every sentence a claim), the labeled corpus's messages one by one
(typical lengths), and a 4,000-character pasted help-centre article (few claims). Each message
is distinct, so nothing is served from a cache. Prints medians and the machine.
Run: .venv/bin/python bench/bench_reader.py [runs]
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from novamart.evaluation.corpus import load_corpus
from novamart.kb import default_kb
from novamart.kernel import default_kernel
from novamart.language import lexicon_for, read

DENSE = (
    "Hi {name}, thank you for waiting. I'm sorry, but a full refund isn't possible: the laptop "
    "has been opened and you bought it {days} days ago, outside our 30-day return window, and "
    "our technician found no fault. As a gold member, I've issued ${amount:.2f} in store credit. "
)
NAMES = ("Maya", "Omar", "Ines", "Kenji", "Zara", "Felix", "Priya", "Tariq", "Leah", "Diego")


def dense_reply(i: int) -> str:
    """4,000 characters of distinct claim-bearing sentences (nothing repeats, so no cache)."""
    parts, k = [], 0
    while sum(map(len, parts)) < LIMIT:
        parts.append(DENSE.format(name=NAMES[(i + k) % 10], days=31 + (i * 7 + k) % 29,
                                  amount=10 + i + k * 1.25))  # fmt: skip
        k += 1
    return "".join(parts)[:LIMIT]


LIMIT = 4000


def median_ms(texts: list[str]) -> float:
    lexicon = lexicon_for(default_kernel().rulebook)
    cold = read.__wrapped__  # the reading itself, past the cache of whole messages
    cold(texts[0], lexicon)  # warm the lexicon and the lemma cache
    samples = []
    for text in texts:
        start = time.perf_counter()
        cold(text, lexicon)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main(runs: int = 200) -> None:
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}")
    print(f"python {platform.python_version()} on {platform.platform()}")
    dense = [dense_reply(i) for i in range(runs)]
    article = " ".join(a.body for a in default_kb().articles.values())
    pasted = [(f"Ref {i}. " + article)[:LIMIT] for i in range(runs)]
    corpus = [m.text for m in load_corpus()]
    mean_length = statistics.mean(len(t) for t in corpus)
    print(f"dense 4,000-character reply          median {median_ms(dense):.3f} ms")
    print(f"pasted 4,000-character article       median {median_ms(pasted):.3f} ms")
    print(f"corpus messages (mean {mean_length:.0f} chars)   median {median_ms(corpus):.3f} ms")
    print("target: a 4,000-character message in under 2 ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
