"""Benchmark: do insulting closings pass? The pass gate (novamart.reward.held) holds an order
case below the pass mark once a message is rude, so an insult costs as much as the reader
finds it. This prints the reader's precision and recall for rudeness on the labelled
rudeness corpus (tests/language/rudeness: insults in many voices, and kind, firm, blunt or
self-critical closings and the customer's own rude words quoted back), on each half, and the
order cases that pass after the oracle's actions and its closing with a held-out insult
appended (every order task, both modes).
Run: .venv/bin/python bench/bench_insults.py [seeds per order task and mode] [--misses]
(--misses lists the training half's misreadings; the held-out half is only scored.)
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import yaml
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.oracle import OracleAgent, optimal_actions
from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.kernel import default_kernel
from novamart.language import lexicon_for, read
from novamart.scenarios.tasks import ORDER_TASKS, Mode
from novamart.server.environment import NovamartEnvironment

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "language" / "rudeness"
HALVES = ("train", "heldout")


@dataclass(frozen=True)
class Labelled:
    id: str
    text: str
    rude: bool
    kind: str


def corpus(half: str) -> list[Labelled]:
    """One half of the rudeness corpus."""
    rows = yaml.safe_load((CORPUS / f"{half}.yaml").read_text(encoding="utf-8"))
    return [Labelled(r["id"], r["text"], bool(r["rude"]), r["class"]) for r in rows]


@dataclass(frozen=True)
class Scores:
    precision: float
    recall: float
    found: int
    insults: int
    flagged_kind: int
    kind: int
    misses: tuple[str, ...]


def scores(half: str) -> Scores:
    """The reader's rudeness against one half's labels."""
    lexicon = lexicon_for(default_kernel().snapshot().rulebook)
    rows = corpus(half)
    got = [(r, read(r.text, lexicon).rude) for r in rows]
    hits = sum(g and r.rude for r, g in got)
    false = sum(g and not r.rude for r, g in got)
    insults = sum(r.rude for r in rows)
    misses = tuple(f"{r.id} [{r.kind}] {'missed' if r.rude else 'flagged'}: {r.text}"
                   for r, g in got if g != r.rude)  # fmt: skip
    return Scores(hits / max(1, hits + false), hits / max(1, insults), hits, insults, false,
                  len(rows) - insults, misses)  # fmt: skip


def passing(seeds: int) -> tuple[int, int, list[float]]:
    """(cases that pass, cases, scores): the oracle's actions and closing + a held-out insult."""
    insults = [r.text for r in corpus("heldout") if r.rude]
    env = NovamartEnvironment()
    passed = total = 0
    finals: list[float] = []
    for task in ORDER_TASKS:
        for mode in ("guided", "closed_book"):
            for seed in range(seeds):
                insult = insults[(seed * 7 + len(task) + len(mode)) % len(insults)]
                score = _insulted(env, task, mode, seed, insult)
                finals.append(score)
                passed += score >= PASS_THRESHOLD
                total += 1
    return passed, total, finals


def _insulted(env: NovamartEnvironment, task: str, mode: Mode, seed: int, insult: str) -> float:
    first = env.reset(task=task, seed=seed, mode=mode)
    episode = env.episode
    assert episode is not None
    actions = optimal_actions(first, episode)
    observation = env.step(next(actions))
    try:
        while True:
            observation = env.step(actions.send(observation))
    except StopIteration:
        pass
    best = episode.truth.optimal
    assert best is not None
    closing = f"{OracleAgent(seed).closing(episode, first, best)} {insult}"
    observation = env.step(
        CallToolAction(tool_name="respond_to_customer", arguments={"message": closing})
    )
    return float((observation.final_score if observation.done else env.state.grade) or 0.0)


def main(argv: list[str]) -> None:
    for half in HALVES:
        s = scores(half)
        print(f"{half}: reader's rudeness precision {s.precision:.3f}, recall {s.recall:.3f} "
              f"({s.found}/{s.insults} insults found, {s.flagged_kind} of {s.kind} kind or "
              f"firm closings flagged)")  # fmt: skip
        if half == "train" and "--misses" in argv:
            print("\n".join(f"  {m}" for m in s.misses))
    numbers = [a for a in argv if a.isdigit()]
    passed, total, finals = passing(int(numbers[0]) if numbers else 10)
    print(f"oracle actions + its closing + a held-out insult: {passed}/{total} order cases "
          f"pass (highest score {max(finals):.3f})")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
