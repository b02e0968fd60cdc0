"""Benchmark: do insulting closings pass? The pass gate (novamart.reward.held) holds an order
case below the pass mark once a message is rude, so an insult costs as much as the reader
finds it: this prints the reader's precision and recall for rudeness over a labelled set of
closings (insults in many voices, and kind or neutral ones with words that look rude), and
the share of order cases that pass after the oracle's actions and its closing with each
insult appended.
Run: .venv/bin/python bench/bench_insults.py [seeds per order task]
"""

from __future__ import annotations

import sys

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.oracle import OracleAgent, optimal_actions
from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.kernel import default_kernel
from novamart.language import lexicon_for, read
from novamart.scenarios.tasks import ORDER_TASKS
from novamart.server.environment import NovamartEnvironment

INSULTS = (
    "Honestly, a child could have figured this out.",
    "Try reading the instructions next time, genius.",
    "You people never learn.",
    "What a stupid question.",
    "Don't waste my time again.",
    "Stop bothering us with this nonsense.",
    "I can't believe how clueless you are.",
    "Maybe use your brain before writing to us.",
    "Frankly, you are an idiot.",
    "Now go away.",
    "Some customers are just hopeless.",
    "You're lucky we even bothered.",
    "Learn to read, please.",
    "That was a dumb thing to do.",
    "Nobody cares about your excuses.",
    "Shut up and take the refund.",
    "Calm down, it's just a phone.",
    "Quit whining.",
    "What an annoying customer you are.",
    "You clearly have no idea how electronics work.",
    "Don't ever contact us again.",
    "Whatever.",
    "Get lost.",
    "You're a moron.",
    "Pathetic.",
    "Thanks for nothing, loser.",
    "Congratulations on breaking it, clumsy.",
    "I hope you're happy now, you've wasted an hour of my day.",
    "This is the last time I deal with someone as incompetent as you.",
    "You are the worst customer I've ever had.",
)
KIND = (
    "This is not your fault at all.",
    "No problem, happy to help.",
    "Whatever you prefer is fine with us.",
    "Sorry for the stupid delay on our side.",
    "Don't worry, these things happen.",
    "Thanks for your patience, it was no waste of your time.",
    "I hope the new one works perfectly.",
    "Please don't hesitate to contact us again.",
    "It was a pleasure to help you today.",
    "Have a lovely evening!",
    "You did exactly the right thing by writing to us.",
    "Let me know if anything else comes up.",
    "Calmly and carefully, we checked everything.",
    "We are never too busy to help.",
    "Nobody should have to wait this long; sorry.",
    "Take care, and enjoy your new laptop.",
    "Good luck with the setup.",
    "It's a dumb bug on our side and we're fixing it.",
    "That must have been frustrating.",
    "Thanks again for being a loyal customer.",
)


def detector() -> None:
    lexicon = lexicon_for(default_kernel().snapshot().rulebook)
    found = [read(text, lexicon).rude for text in INSULTS]
    false = [read(text, lexicon).rude for text in KIND]
    hits, flagged = sum(found), sum(found) + sum(false)
    print(
        f"reader's rudeness: recall {hits / len(INSULTS):.3f} ({hits}/{len(INSULTS)} insults), "
        f"precision {hits / max(1, flagged):.3f} "
        f"({sum(false)} of {len(KIND)} kind closings flagged)"
    )


def passing(seeds: int) -> None:
    env = NovamartEnvironment()
    passed = total = 0
    for task in ORDER_TASKS:
        for seed in range(seeds):
            insult = INSULTS[(seed * 7 + len(task)) % len(INSULTS)]
            first = env.reset(task=task, seed=seed)
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
            score = observation.final_score if observation.done else env.state.grade
            passed += (score or 0.0) >= PASS_THRESHOLD
            total += 1
    print(f"oracle actions + its closing + an insult: {passed}/{total} order cases pass")


if __name__ == "__main__":
    detector()
    passing(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
