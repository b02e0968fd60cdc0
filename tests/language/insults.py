"""The rudeness corpus (tests/language/rudeness: a training half the detector was built on,
a held-out half written first and only scored) and what rudeness costs an episode: the
reader's precision and recall per half, and the score of the oracle's actions and closing
with an insult appended. Used by bench/bench_insults.py and tests/language/test_rudeness.py.
"""

from __future__ import annotations

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

CORPUS = Path(__file__).resolve().parent / "rudeness"
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
                score = insulted(env, task, mode, seed, insult)
                finals.append(score)
                passed += score >= PASS_THRESHOLD
                total += 1
    return passed, total, finals


def insulted(env: NovamartEnvironment, task: str, mode: Mode, seed: int, insult: str) -> float:
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
