"""The policy reasoning kernel: rule files in, explained decisions out.

Nothing here knows about HTTP, OpenEnv or episodes, and no durable_rules object
crosses this package's public surface.
"""

from novamart.kernel.decide import CompiledRulebook, PolicyKernel, default_kernel, render
from novamart.kernel.decision import ConditionResult, Decision, Grant, PolicyVerdict
from novamart.kernel.engine import EngineError
from novamart.kernel.facts import FactRecord, Facts, FactSchema
from novamart.kernel.rulebook import Rulebook, RulebookError, RuleIssue, load_rulebook

__all__ = [
    "CompiledRulebook",
    "ConditionResult",
    "Decision",
    "EngineError",
    "FactRecord",
    "FactSchema",
    "Facts",
    "Grant",
    "PolicyKernel",
    "PolicyVerdict",
    "RuleIssue",
    "Rulebook",
    "RulebookError",
    "default_kernel",
    "load_rulebook",
    "render",
]
