"""The rule set as the running system needs it: valid files whose resolutions name tools
that exist. The kernel cannot know the tools (they sit above it), so every loader above it
that serves or checks rules passes them through here."""

from __future__ import annotations

from pathlib import Path

from novamart.kernel import PolicyKernel, Rulebook, RuleIssue, load_rulebook
from novamart.scenarios.retail_requests import writes_in_place_problems
from novamart.scenarios.retail_world import WORLD_FILE, RetailRules
from novamart.scenarios.tasks import ORDER_TASKS, RETAIL_LOOKUPS, WORLD_TOOLS


def resolution_tools() -> frozenset[str]:
    """The built-in tools of order cases, declared worlds and the retail world, where every
    resolution is carried out and every fact found out (read from the task registry, which is
    light to import, unlike the tool registry); a declared resolution's tool is generated from
    it."""
    return frozenset(tool for spec in ORDER_TASKS.values() for tool in spec.tools) | set(
        WORLD_TOOLS + RETAIL_LOOKUPS
    )


def check_rules(rules_dir: Path, tool_check: bool = True) -> Rulebook:
    """Load ``rules_dir`` with every check (raises RulebookError listing each problem);
    without ``tool_check``, every check but that the tools named exist."""
    return load_rulebook(rules_dir, tools=resolution_tools() if tool_check else None)


def load_kernel(rules_dir: Path, tool_check: bool = True) -> PolicyKernel:
    """A kernel over ``rules_dir``, with every check (``tool_check``: as check_rules)."""
    return PolicyKernel(rules_dir, tools=resolution_tools() if tool_check else None)


def world_problems(rules_dir: Path) -> list[RuleIssue]:
    """What keeps the world a rules folder declares (world/world.yaml) from being drawn on
    its rules: a write the kernel may grant in place of a request that the request cannot
    give its arguments (novamart.scenarios.retail_requests.writes_in_place_problems). None
    for a folder without a world; the rule files are checked first (``check_rules``)."""
    if not (rules_dir / WORLD_FILE).is_file():
        return []
    found = writes_in_place_problems(RetailRules(rules_dir.resolve()))
    return [RuleIssue(file="resolutions.yaml", line=None, where="", message=m) for m in found]
