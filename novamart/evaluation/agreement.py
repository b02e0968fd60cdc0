"""``novamart judge-agreement``: how often the LLM judge reads the labeled message corpus as
the deterministic reader does, and as the labels say.

Each corpus message goes to the judge as a case of its own: the rubric and request of
``--judge llm`` (novamart.evaluation.llm_judge), the message as the one agent turn, and no
case around it. The context is deliberately empty rather than built from the labels: a
carried-out resolution or established facts taken from the labels would tell the judge the
answer it is measured on. The judge's reading of the message (the verdict's ``messages``
entry) is compared, claim kind by claim kind, with what the reader (novamart.language)
reads and with the labels: one yes/no item per message and resolution for each stance, per
message and fact field for facts, per message for courtesy, rudeness and secret requests.
For each kind: the agreement rate, Cohen's kappa and the confusion counts; the reader's own
agreement with the labels is shown beside, for reference. A message the judge gives no
usable verdict for is counted apart and left out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel, computed_field
from rich.console import Console
from rich.table import Table

from novamart.evaluation import options
from novamart.evaluation.chat import ChatModel, LLMSettings, ModelUnavailable
from novamart.evaluation.corpus import CORPUS_DIR, LabeledMessage, load_corpus, split
from novamart.evaluation.llm_judge import (
    JUDGE_VARIABLES,
    MalformedVerdict,
    MessageReading,
    parse_verdict,
    quoted,
    request,
)
from novamart.kernel import Rulebook, default_kernel
from novamart.language import Lexicon, lexicon_for, read

STANCES = ("asserted", "offered", "denied")
KINDS = (*(f"resolution {s}" for s in STANCES), "fact", "courtesy", "rudeness", "secret request")
FLAGS = ("courtesy", "rudeness", "secret request")
YES = "yes"
ALL = "all kinds"
TURN = 1

Items = dict[str, set[str]]
"""Claim kind -> what the message claims of that kind (resolution names, fact fields, or
``yes`` for a flag)."""


class Confusion(BaseModel):
    """Yes/no items of one claim kind, the judge against another reading."""

    both: int = 0
    judge_only: int = 0
    other_only: int = 0
    neither: int = 0

    def add(self, judge: bool, other: bool) -> None:
        if judge and other:
            self.both += 1
        elif judge:
            self.judge_only += 1
        elif other:
            self.other_only += 1
        else:
            self.neither += 1

    @computed_field  # type: ignore[prop-decorator]
    @property
    def items(self) -> int:
        return self.both + self.judge_only + self.other_only + self.neither

    @computed_field  # type: ignore[prop-decorator]
    @property
    def agreement(self) -> float | None:
        return (self.both + self.neither) / self.items if self.items else None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kappa(self) -> float | None:
        """Cohen's kappa; None when chance agreement is certain (both readings constant)."""
        n = self.items
        if not n:
            return None
        judge_yes, other_yes = self.both + self.judge_only, self.both + self.other_only
        chance = (judge_yes * other_yes + (n - judge_yes) * (n - other_yes)) / n**2
        if chance >= 1.0:
            return None
        observed = (self.both + self.neither) / n
        return (observed - chance) / (1.0 - chance)


Table_ = dict[str, Confusion]
"""Claim kind (and ``all kinds``) -> confusion."""


class Agreement(BaseModel):
    model: str
    corpus: str
    messages: int
    judged: int
    no_verdict: list[str]
    """``id: why`` for each message the judge gave no usable verdict for."""
    judge_vs_reader: Table_
    judge_vs_labels: Table_
    reader_vs_labels: Table_


def universe(rulebook: Rulebook) -> dict[str, list[str]]:
    """Every item a message is asked about, per kind."""
    stances = {f"resolution {s}": list(rulebook.resolutions) for s in STANCES}
    return {**stances, "fact": rulebook.facts.refs(), **{flag: [YES] for flag in FLAGS}}


def _flags(courteous: bool, rude: bool, secret: bool) -> Items:
    return {k: {YES} if v else set() for k, v in zip(FLAGS, (courteous, rude, secret), strict=True)}


def judge_items(reading: MessageReading) -> Items:
    claimed = dict(zip(STANCES, (reading.asserted, reading.offered, reading.denied), strict=True))
    items = {f"resolution {s}": set(claimed[s]) for s in STANCES}
    items["fact"] = set(reading.facts)
    return items | _flags(reading.courteous, reading.rude, reading.secret_request)


def reader_items(text: str, lexicon: Lexicon) -> Items:
    """What the reader claims of each kind (facts whose value it read, as measure.py)."""
    reading = read(text, lexicon)
    items = {
        f"resolution {s}": {c.resolution for c in reading.resolutions if c.stance == s}
        for s in STANCES
    }
    items["fact"] = {f.ref for f in reading.facts if f.value is not None}
    return items | _flags(reading.courteous, reading.rude, bool(reading.secret_requests))


def label_items(message: LabeledMessage) -> Items:
    labels = message.resolutions or []
    items = {f"resolution {s}": {c.resolution for c in labels if c.stance == s} for s in STANCES}
    items["fact"] = {f.ref for f in message.facts or []}
    return items | _flags(message.courteous, message.rude, message.secret_request)


def compare(pairs: list[tuple[Items, Items]], rulebook: Rulebook) -> Table_:
    """The confusion of each kind (and of all pooled) over the messages' item pairs."""
    table = {kind: Confusion() for kind in (*KINDS, ALL)}
    for kind, subjects in universe(rulebook).items():
        for first, second in pairs:
            for subject in subjects:
                said, other = subject in first[kind], subject in second[kind]
                table[kind].add(said, other)
                table[ALL].add(said, other)
    return table


def corpus_case(message: LabeledMessage) -> dict[str, Any]:
    """A corpus message as a case file: the one agent turn, no case around it."""
    return {
        "case": {"task": "one agent message, read out of any case", "wish": None},
        "ground_truth": None,
        "carried_out": None,
        "established_by_agent": {},
        "hidden_not_established": {},
        "conversation": [
            {
                "turn": TURN,
                "speaker": "agent",
                "text": quoted(message.text),
                "established_when_sent": [],
                "carried_out_when_sent": None,
            }
        ],
    }


def measure(
    model: ChatModel, corpus: list[LabeledMessage], rulebook: Rulebook, where: str
) -> Agreement:
    """Ask the judge about every message of ``corpus`` (request i carries seed i)."""
    lexicon = lexicon_for(rulebook)
    judged: list[tuple[Items, Items, Items]] = []
    missing = []
    for seed, message in enumerate(corpus):
        try:
            reply = model.complete(request(rulebook, corpus_case(message)), seed=seed)
            verdict = parse_verdict(reply.content, rulebook, {TURN})
        except (ModelUnavailable, MalformedVerdict) as exc:
            missing.append(f"{message.id}: {type(exc).__name__}: {exc}")
            continue
        reading = judge_items(verdict.messages[0])
        judged.append((reading, reader_items(message.text, lexicon), label_items(message)))
    return Agreement(
        model=model.settings.model,
        corpus=where,
        messages=len(corpus),
        judged=len(judged),
        no_verdict=missing,
        judge_vs_reader=compare([(j, r) for j, r, _ in judged], rulebook),
        judge_vs_labels=compare([(j, lab) for j, _, lab in judged], rulebook),
        reader_vs_labels=compare([(r, lab) for _, r, lab in judged], rulebook),
    )


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def tables(result: Agreement) -> list[Table]:
    """One table per reading the judge is held against; the labels' also shows the reader's
    own kappa against them."""
    scope = f"{result.judged} of {result.messages} labeled messages ({result.corpus})"
    out = []
    for against, confusions in (
        ("the reader", result.judge_vs_reader),
        ("the labels", result.judge_vs_labels),
    ):
        grid = Table(
            title=f"LLM judge {result.model} vs {against} on {scope}",
            caption=f"y/n: the judge says yes, {against} no; reader kappa: the reader's own",
        )
        grid.add_column("claim kind", no_wrap=True)
        for column in ("items", "agree", "kappa", "y/y", "y/n", "n/y", "n/n"):
            grid.add_column(column, justify="right")
        labels = against == "the labels"
        if labels:
            grid.add_column("reader kappa", justify="right")
        for kind in (*KINDS, ALL):
            c = confusions[kind]
            cells = [kind, str(c.items), _number(c.agreement), _number(c.kappa)]
            cells += [str(n) for n in (c.both, c.judge_only, c.other_only, c.neither)]
            if labels:
                cells.append(_number(result.reader_vs_labels[kind].kappa))
            grid.add_row(*cells)
        out.append(grid)
    return out


def judge_agreement_command(
    judge_model: options.JudgeModel = None,
    judge_api_base_url: options.JudgeApiBaseUrl = None,
    corpus: Annotated[
        Path,
        typer.Option(file_okay=False, help="The labeled corpus (default: the repository's)."),
    ] = CORPUS_DIR,
    part: Annotated[
        str, typer.Option("--split", help="all, dev (even ids) or held-out (odd ids).")
    ] = "all",
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Only the first N messages.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    timeout: options.Timeout = None,
    retries: options.Retries = None,
    backoff: options.Backoff = None,
) -> None:
    """The LLM judge's agreement with the deterministic reader and the labels, on the
    labeled message corpus (needs JUDGE_API_KEY; one request per message)."""
    from novamart.evaluation.preflight import require_key

    if part not in ("all", "dev", "held-out"):
        options.fail(f"--split must be all, dev or held-out, not {part!r}")
    settings: LLMSettings = options.llm_settings(
        judge_model, judge_api_base_url, timeout, retries, backoff, None, JUDGE_VARIABLES
    )
    require_key(settings, JUDGE_VARIABLES)
    try:
        messages = load_corpus(corpus)
    except (OSError, ValueError) as exc:
        options.fail(f"{corpus}: {exc}")
    if part != "all":
        messages = split(messages, part)
    messages = messages[:limit]
    if not messages:
        options.fail(f"{corpus}: no labeled message to judge")
    model = ChatModel(settings, variables=JUDGE_VARIABLES)
    where = f"{corpus.name}, {part}" + (f", first {limit}" if limit else "")
    result = measure(model, messages, default_kernel().rulebook, where)
    if as_json:
        typer.echo(json.dumps(result.model_dump(mode="json"), indent=1))
    else:
        console = Console()
        for grid in tables(result):
            console.print(grid)
    if result.no_verdict:
        typer.echo(
            f"{len(result.no_verdict)} message(s) without a usable verdict; first: "
            f"{result.no_verdict[0]}",
            err=True,
        )
