"""What the analyst commands share: the one ``--rules-dir`` option, loading rules with
every problem printed, and the consoles (results on stdout, problems on stderr)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from novamart.analyst.checks import check_rules, load_kernel
from novamart.kernel import CompiledRulebook, PolicyKernel, RulebookError, RuleIssue
from novamart.kernel.rulebook import DEFAULT_RULES_DIR

console = Console(soft_wrap=True, highlight=False)
errors = Console(stderr=True, soft_wrap=True, highlight=False)

RULES_DIR_HELP = "Folder of rule files (default: the repository's rules/)."
RulesDirOption = Annotated[
    Path | None, typer.Option("--rules-dir", help=RULES_DIR_HELP, show_default=False)
]
RulesDirArgument = Annotated[
    Path | None,
    typer.Argument(
        help="The same as --rules-dir (kept so older scripts keep working).", show_default=False
    ),
]

ToolCheck = Annotated[
    bool,
    typer.Option(
        "--tool-check/--no-tool-check",
        help="Whether each resolution's and fact kind's tool must exist; --no-tool-check "
        "checks a world whose tools are still being built (tests/kernel/fixtures/retail_world).",
    ),
]


def fail(message: str, code: int = 2) -> NoReturn:
    errors.print(message, markup=False)
    raise typer.Exit(code)


def rules_dir(positional: Path | None, option: Path | None) -> Path:
    """The rules directory from ``--rules-dir`` or the older positional form (not both)."""
    if positional is not None and option is not None and positional.resolve() != option.resolve():
        fail(f"two rules directories given ({positional} and --rules-dir {option}); give one")
    return option or positional or DEFAULT_RULES_DIR


def print_issues(issues: list[RuleIssue], where: Path) -> None:
    for issue in issues:
        errors.print(str(issue), markup=False)
    errors.print(f"[red]{len(issues)} problem(s) in {where}[/red]")


def kernel_or_exit(directory: Path, tool_check: bool = True) -> PolicyKernel:
    """The kernel over ``directory``; exit 1 printing every problem when it is invalid."""
    try:
        return load_kernel(directory, tool_check)
    except RulebookError as e:
        print_issues(e.issues, directory)
        raise typer.Exit(1) from None


def compiled_or_exit(directory: Path, code: int = 2, tool_check: bool = True) -> CompiledRulebook:
    """The rule set of ``directory`` compiled; exit ``code`` printing every problem."""
    try:
        return CompiledRulebook(check_rules(directory, tool_check))
    except RulebookError as e:
        print_issues(e.issues, directory)
        raise typer.Exit(code) from None
