"""Issue 18's KB truth, swept wide: every falsifier class on every article's answer and reply.

The held-out corpus run (``python -m tests.tickets.falsified``) reports precision and recall on
the replies it was split from; this sweep asks more of the same grader: each article's own
answer in three frames plus every corpus reply, each falsified ``SEEDS`` ways per class of
tests/tickets/falsified.py (negated, reversed, another article's fact, ...), scored as a
``kb_grounded_response`` episode would score it. It prints, per class, the mean, the number of
cases at or above the pass mark and the articles with the highest means (the lowest for the
honest and true classes); ``--examples`` prints every case at or above the pass mark.

Run: PYTHONPATH=. .venv/bin/python -m bench.kb_truth_sweep [SEEDS] [--examples]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from statistics import mean

from novamart.kb import default_kb
from tests.tickets.falsified import LIES, TRUE_CLASSES, Case, falsify, framed, score
from tests.tickets.written import kb_replies

PASS_MARK = 0.8
HONEST = "honest"


def sweep(seeds: int) -> dict[tuple[str, str], list[tuple[float, str]]]:
    """(class, article) -> [(score, text)] over every answer and reply."""
    articles = [a for a in default_kb().articles.values() if a.questions]
    texts = [(a.id, framed(a.id, frame)) for a in articles for frame in range(3)]
    texts += [(r.article, r.text) for r in kb_replies()]
    found: dict[tuple[str, str], list[tuple[float, str]]] = defaultdict(list)
    for j, (article, base) in enumerate(texts):
        found[(HONEST, article)].append((score(Case(HONEST, article, base), j), base))
        for kind in (*LIES, *TRUE_CLASSES):
            for seed in range(seeds):
                text = falsify(base, article, kind, seed * 31 + j)
                if text is not None:
                    found[(kind, article)].append(
                        (score(Case(kind, article, text), seed + j), text)
                    )
    return found


def report(found: dict[tuple[str, str], list[tuple[float, str]]], examples: bool) -> None:
    for kind in (HONEST, *TRUE_CLASSES, *LIES):
        per_article = {a: [s for s, _ in v] for (k, a), v in found.items() if k == kind}
        scores = [s for v in per_article.values() for s in v]
        if not scores:
            continue
        true = kind == HONEST or kind in TRUE_CLASSES
        ranked = sorted(per_article.items(), key=lambda kv: mean(kv[1]), reverse=not true)
        worst = ", ".join(f"{a} {mean(v):.3f}" for a, v in ranked[:5])
        passing = sum(s >= PASS_MARK for s in scores)
        print(
            f"{kind:24} n={len(scores):5} mean {mean(scores):.3f} min {min(scores):.3f} "
            f">= {PASS_MARK}: {passing:4}  {'lowest' if true else 'highest'}: {worst}"
        )
        if examples and not true:
            for (k, article), cases in found.items():
                for s, text in cases:
                    if k == kind and s >= PASS_MARK:
                        print(f"    {article} {s:.3f} {text!r}")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    report(sweep(int(args[0]) if args else 6), "--examples" in sys.argv)


if __name__ == "__main__":
    main()
