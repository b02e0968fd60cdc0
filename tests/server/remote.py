"""Playing NovaMart over the wire: the heuristic reference agent driving a typed client."""

from openenv.core.client_types import StepResult

from novamart.agents.heuristic import HeuristicAgent
from novamart.client import NovamartEnv
from novamart.models import NovamartObservation, NovamartState


async def play(env: NovamartEnv, task: str, seed: int, **case: object) -> list[StepResult]:
    """One heuristic episode over `env`'s session: the reset result, then each step's;
    ``case``: a mode and policy variant, when given."""
    results = [await env.reset(task=task, seed=seed, episode_id=f"{task}-{seed}", **case)]
    agent = HeuristicAgent(seed=seed)
    agent.start(results[0].observation)
    while not results[-1].done:
        results.append(await env.step(agent.act(results[-1].observation)))
    return results


async def play_session(
    url: str, task: str, seed: int, **case: object
) -> tuple[list[StepResult], NovamartState]:
    """A heuristic episode in a fresh session, and the session's state at its end."""
    async with NovamartEnv(base_url=url) as env:
        results = await play(env, task, seed, **case)
        return results, await env.state()


def observations(results: list[StepResult]) -> list[NovamartObservation]:
    return [result.observation for result in results]
