"""The `novamart` command, for policy analysts and operators.

Every command that reads rule files takes ``--rules-dir DIR`` (``rules check`` and
``rules test`` also accept the directory as their first argument, the older form).
"""

from __future__ import annotations

import typer

from novamart.analyst.explain_cli import explain_command
from novamart.analyst.rules_cli import rules_app
from novamart.audit.cli import audit_command
from novamart.evaluation.agreement import judge_agreement_command
from novamart.evaluation.cli import eval_command
from novamart.scenarios.cli import scenarios_command
from novamart.server.cli import serve

app = typer.Typer(
    help="NovaMart: policy rules, explanations and the environment.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(rules_app, name="rules")
app.command("explain")(explain_command)
app.command("serve")(serve)
app.command("eval")(eval_command)
app.command("judge-agreement")(judge_agreement_command)
app.command("scenarios")(scenarios_command)
app.command("audit")(audit_command)


if __name__ == "__main__":
    app()
