"""``novamart judge-agreement``: the judge's reading of the labeled corpus against the reader's
and the labels. A stand-in judge that answers from the labels agrees with them fully (and
with the reader exactly as far as the reader agrees with the labels); one that answers the
opposite of every label agrees never; the figures follow the answers."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from novamart.cli import app
from novamart.evaluation.agreement import ALL, KINDS, Agreement, label_items, universe
from novamart.evaluation.corpus import LabeledMessage, load_corpus
from novamart.evaluation.llm_judge import CLOSE, OPEN
from novamart.kernel import default_kernel
from tests.inference.standin import Answer, StandIn, serve, status, text

LIMIT = 60
CORPUS = {m.text: m for m in load_corpus()}
FIELDS = {"resolution asserted": "asserted", "resolution offered": "offered"}
FIELDS |= {"resolution denied": "denied", "fact": "facts"}
FLAGS = {"courtesy": "courteous", "rudeness": "rude", "secret request": "secret_request"}


def message_of(body: dict[str, Any]) -> LabeledMessage:
    case = json.loads(body["messages"][1]["content"])
    (turn,) = case["conversation"]
    return CORPUS[turn["text"].removeprefix(f"{OPEN}\n").removesuffix(f"\n{CLOSE}")]


def answering(flip: bool) -> Callable[[dict[str, Any], int], Answer]:
    """A judge that reads each message as its labels say (``flip``: the opposite of each)."""
    every = universe(default_kernel().rulebook)

    def script(body: dict[str, Any], _index: int) -> Answer:
        items = label_items(message_of(body))
        if flip:
            items = {kind: set(every[kind]) - claimed for kind, claimed in items.items()}
        reading: dict[str, Any] = {"turn": 1}
        reading |= {key: sorted(items[kind]) for kind, key in FIELDS.items()}
        reading |= {key: bool(items[kind]) for kind, key in FLAGS.items()}
        verdict = {"messages": [reading], "courtesy": 1, "explanation": 0, "confirmation": 0}
        return text(json.dumps({**verdict, "rationale": "read from the labels"}))

    return script


def agreement(stand_in: StandIn, *extra: str, key: str = "judge-key") -> Result:
    args = ["judge-agreement", "--judge-api-base-url", stand_in.url, "--judge-model", "jm"]
    args += ["--limit", str(LIMIT), "--retries", "0", *extra]
    return CliRunner().invoke(app, args, env={"JUDGE_API_KEY": key})


def figures(result: Result) -> Agreement:
    assert result.exit_code == 0, result.output
    return Agreement.model_validate_json(result.stdout)


def test_a_judge_that_answers_as_the_labels_agrees_with_them_fully() -> None:
    with serve(answering(flip=False)) as stand_in:
        report = figures(agreement(stand_in, "--json"))
    assert len(stand_in.requests) == report.messages == report.judged == LIMIT
    assert {r["seed"] for r in stand_in.requests} == set(range(LIMIT))
    assert report.model == "jm" and report.no_verdict == []
    for kind in (*KINDS, ALL):
        labels = report.judge_vs_labels[kind]
        assert labels.agreement == 1.0 and labels.judge_only == labels.other_only == 0
        assert labels.kappa in (1.0, None)  # None: a kind no message of the slice claims
        # judge = labels, so the judge meets the reader exactly where the labels do
        reader, reference = report.judge_vs_reader[kind], report.reader_vs_labels[kind]
        assert (reader.agreement, reader.kappa) == (reference.agreement, reference.kappa)
        assert (reader.judge_only, reader.other_only) == (
            reference.other_only,
            reference.judge_only,
        )
    assert report.judge_vs_labels[ALL].kappa == 1.0
    assert report.reader_vs_labels[ALL].agreement < 1.0  # the reader misses some


def test_a_judge_that_answers_the_opposite_never_agrees() -> None:
    with serve(answering(flip=True)) as stand_in:
        report = figures(agreement(stand_in, "--json", "--split", "held-out"))
    assert report.judged == LIMIT and "held-out" in report.corpus
    for kind in (*KINDS, ALL):
        labels = report.judge_vs_labels[kind]
        assert labels.agreement == 0.0 and labels.both == labels.neither == 0
        assert labels.kappa is None or labels.kappa <= 0  # 0: one side constant
    assert report.judge_vs_labels[ALL].kappa < 0
    # judge = not labels: it meets the reader exactly where the reader misses the labels
    reader_hits = report.reader_vs_labels[ALL].agreement
    assert report.judge_vs_reader[ALL].agreement == pytest.approx(1 - reader_hits)


def test_messages_without_a_verdict_are_counted_apart_and_the_table_is_printed() -> None:
    honest = answering(flip=False)

    def script(body: dict[str, Any], index: int) -> Answer:
        return status(500) if index % 3 == 0 else honest(body, index)

    with serve(script) as stand_in:
        result = agreement(stand_in)
    assert result.exit_code == 0, result.output
    assert f"{LIMIT - LIMIT // 3} of {LIMIT} labeled messages" in result.stdout
    assert "LLM judge jm vs the reader" in result.stdout
    assert "resolution asserted" in result.stdout and "kappa" in result.stdout
    assert f"{LIMIT // 3} message(s) without a usable verdict" in result.output


def test_no_key_stops_before_any_request() -> None:
    with serve(answering(flip=False)) as stand_in:
        result = agreement(stand_in, key="")
    assert result.exit_code == 2 and "JUDGE_API_KEY" in result.output
    assert stand_in.requests == []
