"""The results say what happened and why: every episode's trajectory (replayable), its
final observation and state, the truth revealed in-process, the failures grouped by the
term that cost the points, and reports that show it all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents import AGENTS
from novamart.evaluation.failures import episode_notes, term_costs
from novamart.evaluation.results import REWARD_DIGITS, EpisodeResult, EvalResults
from novamart.evaluation.sessions import InProcessSession
from novamart.evaluation.stats import passed
from novamart.evaluation.trajectory import final_fields
from novamart.evaluation.transcripts import view
from novamart.models import NovamartObservation
from novamart.retail.session import RetailSession
from novamart.scenarios import TASKS
from novamart.server.launch import serve_in_subprocess
from novamart.tickets import TicketSession
from tests.inference.test_eval_cli import run

AGENTS_TRIED = "oracle,heuristic,random,tool_spam,whole_kb"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalResults, Path]:
    folder = tmp_path_factory.mktemp("eval")
    result = run(
        "--agent", AGENTS_TRIED, "--episodes", "3", "--seed", "11",
        "--out", str(folder / "r.json"), "--markdown", str(folder / "r.md"),
        "--html", str(folder / "r.html"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return EvalResults.model_validate_json((folder / "r.json").read_text()), folder


def test_every_trajectory_replays_to_the_same_rewards_and_end(
    played: tuple[EvalResults, Path],
) -> None:
    results, _ = played
    assert len(results.episodes) == 5 * len(TASKS) * 3
    session = InProcessSession()
    for episode in results.episodes:
        assert [s.step for s in episode.trajectory] == list(range(1, episode.steps + 1))
        assert [s.reward for s in episode.trajectory] == episode.rewards
        assert episode.done and episode.trajectory[-1].done
        assert not any(s.done for s in episode.trajectory[:-1])
        assert all(s.agent_s >= 0 and s.env_s > 0 for s in episode.trajectory)
        assert episode.elapsed_s >= sum(s.env_s for s in episode.trajectory)
        session.reset(episode.task, episode.seed)
        for step in episode.trajectory:
            observation = session.step(
                CallToolAction(tool_name=step.tool, arguments=step.arguments)
            )
            written = round(observation.reward or 0.0, REWARD_DIGITS)  # as the file holds it
            assert (observation.last_tool_result, written) == (step.result, step.reward)
            breakdown = observation.reward_breakdown.items()
            assert {k: round(v, REWARD_DIGITS) for k, v in breakdown if v} == step.breakdown
        assert final_fields(observation) == episode.final_observation
        state = session.state().model_dump(mode="json")
        shown = episode.final_observation
        rest = {k: v for k, v in state.items() if k not in shown or shown[k] != v}
        assert {**rest, "episode_id": None} == {**episode.state, "episode_id": None}
        assert episode.final_observation["final_score"] == episode.score
        assert episode.costs == term_costs(episode.task, state["grade_terms"])


def test_the_end_reveals_the_truth(played: tuple[EvalResults, Path]) -> None:
    """The terminal observation's reveal is in every episode's record; in-process, the
    policy conditions that blocked each wrong resolution tried are added."""
    results, _ = played
    session = InProcessSession()
    for episode in results.episodes:
        end = episode.final_observation
        assert end["termination"] in ("resolved", "ticket_closed", "step_limit")
        assert end.get("truncated", False) == (end["termination"] == "step_limit")
        assert end["grader_notes"] and episode.hidden is not None
        session.reset(episode.task, episode.seed)
        hidden = session.episode
        if isinstance(hidden, TicketSession):
            assert end["ground_truth"]["expected"]
            assert episode.hidden == {"case_difficulty": hidden.scenario.difficulty}
            continue
        if isinstance(hidden, RetailSession):
            expected = end["ground_truth"]["expected"]["requests"]
            assert [r["outcome"] for r in expected] == episode.hidden["request_outcomes"]
            continue
        best = hidden.truth.optimal
        assert best is not None
        assert end["ground_truth"]["optimal"]["resolution"] == best.resolution
        if episode.agent == "oracle":  # it reads the truth, so it carried it out
            assert episode.state.get("resolution", end.get("resolution")) == best.resolution
        wrong = episode.costs.get("wrong_resolution")
        conditions = episode.hidden["failed_conditions"]
        assert bool(wrong) == bool(conditions), (episode.agent, episode.task, conditions)
        assert all(re.fullmatch(r"\w+ blocked by \w+\.\w+", n) for n in conditions)


def test_failures_are_filed_under_the_term_that_cost_the_most(
    played: tuple[EvalResults, Path],
) -> None:
    results, _ = played
    for cell in results.cells:
        mine = {
            i
            for i, e in enumerate(results.episodes)
            if (e.agent, e.task) == (cell.agent, cell.task)
        }
        failed = {i for i in mine if not passed(results.episodes[i].score)}
        grouped = [i for group in cell.failures for i in group.episodes]
        assert sorted(grouped) == sorted(failed), (cell.agent, cell.task)
        assert cell.summary.passes == len(mine) - len(failed)
        for group in cell.failures:
            for i in group.episodes:
                costs = results.episodes[i].costs
                assert group.cause == max(costs, key=lambda term: costs[term])
    oracle = [c for c in results.cells if c.agent == "oracle"]
    assert all(c.failures == [] for c in oracle)


def test_the_oracle_loses_nothing_on_any_term() -> None:
    """The attack on the failure filing: a perfect episode must show no cost, whatever a
    grader writes for a penalty it did not give (0.0, -0.0) or a factor it did not apply."""
    session = InProcessSession()
    for task in TASKS:
        for seed in range(12):
            observation = session.reset(task, seed)
            agent = AGENTS["oracle"](seed)
            agent.start(observation, session.episode)
            while not observation.done:
                observation = session.step(agent.act(observation))
            terms = session.state().grade_terms
            assert observation.final_score == 1.0
            assert term_costs(task, terms) == {}, (task, seed, terms)


def test_exploits_are_filed_where_they_cheat(played: tuple[EvalResults, Path]) -> None:
    results, _ = played
    causes = {(c.agent, c.task): {g.cause for g in c.failures} for c in results.cells}
    assert causes["tool_spam", "easy_refund"] <= {"resolution", "wrong_resolution", "loop"}
    assert causes["whole_kb", "kb_grounded_response"] & {
        "focus",
        "paraphrase",
        "coverage",
        "retrieval",
    }


class LaterReveal(NovamartObservation):
    """An observation with a terminal field the environment may add later."""

    appeal_outcome: str = ""


def test_terminal_fields_reach_the_results_and_reports_by_name() -> None:
    observation = LaterReveal(
        done=True,
        task="easy_refund",
        final_score=0.3,
        termination="resolved",
        grader_notes={
            "communication": "no message states why the refund is declined: 45 days",
            "tool_use": "0.50",
        },
        appeal_outcome="upheld",
    )
    fields = final_fields(observation)
    assert fields["appeal_outcome"] == "upheld" and fields["termination"] == "resolved"
    episode = EpisodeResult(
        agent="a", task="easy_refund", seed=0, steps=0, rewards=[], score=0.3, done=True,
        success=False, final_observation=fields, costs={"communication": 0.2},
    )  # fmt: skip
    assert episode_notes(episode, "communication") == [
        "no message states why the refund is declined"
    ]
    assert episode_notes(episode, "tool_use") == []  # a bare number is no note
    shown = dict(view(0, episode, 1, 500).final)
    assert shown["appeal_outcome"] == "upheld"


def test_the_reports_show_scores_failures_and_transcripts(
    played: tuple[EvalResults, Path],
) -> None:
    results, folder = played
    page, html = (folder / "r.md").read_text(), (folder / "r.html").read_text()
    title = f"NovaMart evaluation: 5 agents on {len(TASKS)} tasks (3 seeds from 11)"
    assert page.startswith(f"# {title}\n") and f"<title>{title}</title>" in html
    assert "baseline" not in title
    for task in TASKS:
        assert f"## {task}" in page and f'id="task-{task}"' in html
    assert "### kb_grounded_response: failures by cause" in page
    # every episode's transcript, each once, with its calls
    for i, episode in enumerate(results.episodes):
        for text in (page, html):
            assert text.count(f'id="episode-{i}"') == 1
        assert f'href="#episode-{i}"' in html or passed(episode.score)
    assert html.count("<details") == len(results.episodes)


def test_reports_can_cap_the_transcripts(tmp_path: Path) -> None:
    page = tmp_path / "r.md"
    result = run(
        "--agent", "heuristic,do_nothing", "--tasks", "kb_grounded_response",
        "--episodes", "6", "--markdown", str(page), "--out", str(tmp_path / "r.json"),
        "--transcripts", "1",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    results = EvalResults.model_validate_json((tmp_path / "r.json").read_text())
    shown = [int(i) for i in re.findall(r'id="episode-(\d+)"', page.read_text())]
    worst = [
        min((i for i, e in enumerate(results.episodes) if e.agent == agent),
            key=lambda i: results.episodes[i].score)
        for agent in ("heuristic", "do_nothing")
    ]  # fmt: skip
    assert shown == worst
    assert "--transcripts 1" in results.settings.command


def test_over_env_url_the_same_record_but_the_hidden_part(
    played: tuple[EvalResults, Path], tmp_path: Path
) -> None:
    """A server's episodes are recorded the same way, from what the wire carries: the steps,
    the final observation (its ground truth included) and state; only what needs the hidden
    episode is missing."""
    local, _ = played
    out = tmp_path / "remote.json"
    with serve_in_subprocess(tmp_path / "server.log") as server:
        result = run(
            "--agent", "heuristic", "--episodes", "3", "--seed", "11", "--env-url", server.url,
            "--out", str(out),
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    remote = EvalResults.model_validate_json(out.read_text())
    assert remote.settings.rules_version is None
    mine = [e for e in local.episodes if e.agent == "heuristic"]
    assert len(remote.episodes) == len(mine)
    for there, here in zip(remote.episodes, mine, strict=True):
        assert there.hidden is None and here.hidden is not None
        assert there.final_observation["ground_truth"] == here.final_observation["ground_truth"]
        assert [(s.tool, s.arguments, s.result, s.reward) for s in there.trajectory] == [
            (s.tool, s.arguments, s.result, s.reward) for s in here.trajectory
        ]
        assert there.final_observation == here.final_observation
        assert {**there.state, "episode_id": None} == {**here.state, "episode_id": None}
        assert there.costs == here.costs
    theirs = [c for c in local.cells if c.agent == "heuristic"]
    # the same failures by cause (the failed conditions are read in-process only)
    assert [[(g.cause, len(g.episodes)) for g in c.failures] for c in remote.cells] == [
        [(g.cause, len(g.episodes)) for g in c.failures] for c in theirs
    ]
