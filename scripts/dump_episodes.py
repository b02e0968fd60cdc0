"""Dump every episode of the reference agents, to compare the project's behaviour before and
after a change to the kernel or the rule language (issue 19: "the reference episode dump before
and after is identical").

Each line of the output is one episode as JSON: task, agent, mode, policy variant and seed, then
every action with the observation it produced (reward, tool result, reward breakdown) and the
final score. Episode ids and wall-clock fields are left out, so two runs on the same code give
byte-identical files and ``cmp`` (or ``diff``) tells what moved.

Run: .venv/bin/python scripts/dump_episodes.py OUT.jsonl [--seeds N] [--variants 0,3,7]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from novamart.agents import AGENTS, SCRIPTS
from novamart.agents.runner import run_episode
from novamart.scenarios import TASKS
from novamart.scenarios.tasks import MODES
from novamart.server.environment import NovamartEnvironment

AGENT_NAMES = ("oracle", "heuristic", "honest", *SCRIPTS)
VOLATILE = frozenset({"episode_id", "elapsed_ms", "elapsed", "timestamp", "started_at"})


def _stable(value: Any) -> Any:
    """``value`` without the fields that differ between two runs of the same episode."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in sorted(value.items()) if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def cases(seeds: int, variants: list[int | None]) -> list[dict[str, Any]]:
    """Every (task, mode, variant, seed) an episode is played on: the canonical case (no
    seed) and ``seeds`` generated ones; modes and variants for order cases only."""
    out = []
    for task, spec in sorted(TASKS.items()):
        modes = (None,) if spec.is_ticket else MODES
        kinds = (None,) if spec.is_ticket else variants
        for mode in modes:
            for variant in kinds:
                for seed in (None, *range(seeds)):
                    case = {"task": task, "seed": seed}
                    if mode is not None:
                        case |= {"mode": mode, "policy_variant": variant}
                    out.append(case)
    return out


def dump(out: Path, seeds: int, variants: list[int | None]) -> int:
    env = NovamartEnvironment()
    count = 0
    with out.open("w") as handle:
        for case in cases(seeds, variants):
            for name in AGENT_NAMES:
                run = run_episode(env, AGENTS[name](), keep=True, **case)
                steps = [
                    {
                        "action": {"tool": a.tool_name, "arguments": a.arguments},
                        "observation": _stable(o.model_dump(mode="json")),
                    }
                    for a, o in zip(run.actions, run.observations[1:], strict=True)
                ]
                record = {
                    **case,
                    "agent": name,
                    "final_score": run.final_score,
                    "reset": _stable(run.observations[0].model_dump(mode="json")),
                    "steps": steps,
                }
                handle.write(json.dumps(record, sort_keys=True) + "\n")
                count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--seeds", type=int, default=3, help="generated cases per task")
    parser.add_argument(
        "--variants", default="none,0,3,7", help="policy variants (none: the rules as written)"
    )
    args = parser.parse_args(argv)
    variants = [None if v == "none" else int(v) for v in args.variants.split(",")]
    count = dump(args.out, args.seeds, variants)
    print(f"{count} episodes -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
