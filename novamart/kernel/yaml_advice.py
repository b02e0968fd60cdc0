"""PyYAML's syntax errors, said in words an analyst can act on.

PyYAML reports where its parser gave up ("expected <block end>, but found '-'"), which is
often a line after the mistake and never says what to change. This module picks the line
that is really at fault and says what to do there: which line to indent and by how much, a
tab to replace, a value to quote, a bracket or quote to close. Lines and columns count from 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import yaml

_KEY = re.compile(r"^(\s*)(-\s+)?([^\s:#\-{\[][^:#]*):(\s|$)")
_DASH = re.compile(r"^\s*-(\s|$)")
Advice = tuple[int, str]


@dataclass(frozen=True)
class _Error:
    problem: str
    context: str
    at: int
    """The 1-based line where the parser gave up."""
    start: int | None
    """The 1-based line where the construct it was reading began."""
    lines: list[str]

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


def explain(error: yaml.YAMLError, text: str) -> tuple[int | None, str]:
    """The 1-based line to blame and what to do about it."""
    problem = getattr(error, "problem", None) or str(error)
    mark = getattr(error, "problem_mark", None)
    if mark is None:
        return None, f"YAML syntax: {problem}"
    context = getattr(error, "context_mark", None)
    found = _Error(
        problem=problem,
        context=getattr(error, "context", None) or "",
        at=mark.line + 1,
        start=context.line + 1 if context is not None else None,
        lines=text.splitlines(),
    )
    for advise in _ADVISORS:
        advice = advise(found)
        if advice is not None:
            return advice[0], f"YAML syntax: {advice[1]}"
    return found.at, f"YAML syntax: {problem} (line {found.at}, column {mark.column + 1})"


def _tab(e: _Error) -> Advice | None:
    if "'\\t'" not in e.problem:
        return None
    return e.at, "this line is indented with a tab; YAML needs spaces: replace it with spaces"


def _quoted_text(e: _Error) -> Advice | None:
    """A value that starts with { or [ but is text ('{order.category} are not ...')."""
    for number in (e.at, e.start):
        line = e.line(number) if number else ""
        match = _KEY.match(line)
        value = line[match.end() :].strip() if match else ""
        if match and re.match(r"^[{\[][^}\]]*[}\]]\s*[\w,.;'!?]", value):
            key = match.group(3).strip()
            return number, (
                f"the value of {key!r} starts with {value[0]!r}, so YAML reads "
                f'it as a mapping or a list; put the whole text in quotes: {key}: "{value}"'
            )
    return None


def _unclosed(e: _Error) -> Advice | None:
    if "flow node" in e.context:  # inside [ or {, the parser met block syntax
        opened = _last_unclosed(e)
        if opened is not None:
            number, opener = opened
            closer = "]" if opener == "[" else "}"
            message = f"the {opener!r} opened on this line is never closed by {closer!r}"
            return number, message
    if e.start is None:
        return None
    for opener, closer, kind in (("{", "}", "flow mapping"), ("[", "]", "flow sequence")):
        if kind in e.context:
            message = f"the {opener!r} opened on this line is never closed by {closer!r}"
            return e.start, message
    if "quoted scalar" in e.context:
        return e.start, "the quote opened on this line is never closed"
    return None


def _last_unclosed(e: _Error) -> tuple[int, str] | None:
    """The last line before the error that opens more brackets than it closes."""
    for number in range(e.at, 0, -1):
        text = re.sub(r"'[^']*'|\"[^\"]*\"|#.*$", "", e.line(number))
        depth = 0
        for char in text:
            depth += {"[": 1, "{": 1, "]": -1, "}": -1}.get(char, 0)
        if depth > 0:
            return number, next(c for c in reversed(text) if c in "[{")
    return None


def _missing_colon(e: _Error) -> Advice | None:
    if "could not find expected ':'" not in e.problem:
        return None
    number = e.start or e.at
    text = e.line(number).strip()
    return number, f"{text!r} needs a ':' after its key, like '{text}:'"


def _dash_without_space(e: _Error) -> Advice | None:
    for number in (e.at, _above(e, e.at)):
        text = e.line(number).lstrip(" ") if number else ""
        if re.match(r"^-[^\s-]", text):
            fixed = f"- {text[1:]}"
            return number, f"a list item needs a space after '-': write {fixed!r}"
    return None


def _colon_in_value(e: _Error) -> Advice | None:
    if "mapping values are not allowed" not in e.problem:
        return None
    line = e.line(e.at)
    match = _KEY.match(line)
    if match is None or ": " not in line[match.end() :]:
        return None
    above = _above(e, e.at)
    if above is not None and _indent(line) > _key_column(e.line(above)):
        return None  # an over-indented line, not a second colon
    key, value = match.group(3).strip(), line[match.end() :].strip()
    return e.at, (
        f"the value of {key!r} contains ': ', which YAML reads as another key; "
        f'put the value in quotes: {key}: "{value}"'
    )


def _misindented(e: _Error) -> Advice | None:
    if "mapping values are not allowed" not in e.problem and "expected <block end>" not in (
        e.problem
    ):
        return None
    line = e.line(e.at)
    indent = _indent(line)
    if _DASH.match(line):
        item = next(
            (
                n
                for n in range(e.at - 1, 0, -1)
                if _DASH.match(e.line(n)) and _indent(e.line(n)) != indent
            ),
            None,
        )
        if item is not None:
            want = _indent(e.line(item))
            return e.at, (
                f"this line starts a list item ('-') at column {indent + 1}, but the items "
                f"of this list start at column {want + 1} (line {item}): items of one list "
                f"line up, so indent this line by {want} spaces"
            )
    above = _above(e, e.at)
    if above is None:
        return e.at, "this line is indented; the first line of a file starts at column 1"
    want = _key_column(e.line(above))
    key = _key_name(e.line(above))
    return e.at, (
        f"this line is indented {indent} spaces, but {key} on line {above} starts at column "
        f"{want + 1}: keys of one block line up, so indent this line by {want} spaces "
        "(or by as many as the block it belongs to)"
    )


_ADVISORS: tuple[Callable[[_Error], Advice | None], ...] = (
    _tab,
    _quoted_text,
    _unclosed,
    _missing_colon,
    _dash_without_space,
    _colon_in_value,
    _misindented,
)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _key_column(line: str) -> int:
    """Where the key of a line starts (after the '- ' of a list item)."""
    match = _KEY.match(line)
    if match is None:
        return _indent(line)
    return len(match.group(1)) + len(match.group(2) or "")


def _key_name(line: str) -> str:
    match = _KEY.match(line)
    return repr(match.group(3).strip()) if match else "the line"


def _above(e: _Error, at: int) -> int | None:
    """The nearest line above ``at`` with content (not blank, not only a comment)."""
    for number in range(at - 1, 0, -1):
        stripped = e.line(number).strip()
        if stripped and not stripped.startswith("#"):
            return number
    return None
