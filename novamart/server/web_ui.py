"""The NovaMart tab of OpenEnv's web interface (/web): pick a task, reset, call tools.

OpenEnv's generic playground renders CallToolAction.arguments (a dict) as a plain text box
and cannot send it, so NovaMart mounts this page instead: the tools offered are the
observation's `available_actions`; picking one fills the arguments box with a template
made from the tool's schema (the case's order and customer ids already in); every step is
kept in a history table with its reward, rounded like every reward on the page. It drives
OpenEnv's WebInterfaceManager, i.e. the one shared episode of the web page; the history is
each visitor's own. Analysts have their own page, the policy workbench (/workbench).
"""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from novamart.scenarios.tasks import TASKS
from novamart.server.environment import CATALOGUE

Outputs = tuple[Any, ...]
REPEATED = {"result"}  # CallToolObservation.result is NovaMart's last_tool_result again
DIGITS = 3
HISTORY_HEADERS = ["step", "tool", "arguments", "result", "reward", "total"]
_BLANK = {"string": "", "number": 0, "integer": 0, "boolean": False, "object": {}, "array": []}


def rounded(value: Any) -> Any:
    """Rewards and scores to DIGITS decimals, inside lists and mappings too."""
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "`" + json.dumps(value, default=str) + "`"


def format_observation(data: dict[str, Any]) -> str:
    """Markdown of an OpenEnv response: reward, done, then each non-empty observation field."""
    reward = rounded(data.get("reward"))
    lines = [f"**reward:** `{reward}` · **done:** `{data.get('done')}`", ""]
    observation = data.get("observation") or {}
    for name, value in observation.items():
        if name not in REPEATED and value not in (None, "", [], {}):
            shown = rounded(value) if name in ("reward_breakdown", "final_score") else value
            lines.append(f"- **{name}:** {_render(shown)}")
    return "\n".join(lines)


def parse_arguments(text: str) -> dict[str, Any]:
    """The arguments box as a JSON object; empty means no arguments."""
    if not text.strip():
        return {}
    parsed = json.loads(text)
    if not isinstance(parsed, dict):
        raise ValueError('arguments must be a JSON object, e.g. {"order_id": "ORD-1"}')
    return parsed


def argument_template(tool: str, observation: dict[str, Any]) -> dict[str, Any]:
    """Every argument of ``tool`` from its schema: a value the case already shows (its
    order and customer ids), else the schema's default, first choice, or a blank."""
    schema = CATALOGUE[tool][1]
    template: dict[str, Any] = {}
    for name, spec in schema.get("properties", {}).items():
        if observation.get(name) not in (None, ""):
            template[name] = observation[name]
        elif spec.get("default") is not None:
            template[name] = spec["default"]
        elif spec.get("enum"):
            template[name] = spec["enum"][0]
        else:
            types = [spec.get("type")] + [a.get("type") for a in spec.get("anyOf", [])]
            kind = next((t for t in types if t in _BLANK), "string")
            template[name] = _BLANK[kind]
    return template


def _tools(data: dict[str, Any], keep: str | None = None) -> gr.Radio:
    """The tool picker, offering the tools the observation says are callable now."""
    available = (data.get("observation") or {}).get("available_actions") or []
    return gr.Radio(choices=available, value=keep if keep in available else None)


def history_row(data: dict[str, Any], tool: str, arguments: dict[str, Any], total: float) -> list:
    """One step of the history table: what was called, how it went, its reward."""
    result = (data.get("observation") or {}).get("last_tool_result") or {}
    outcome = "ok" if result.get("ok") else (result.get("error") or {}).get("code", "error")
    step = (data.get("observation") or {}).get("step_number")
    reward = rounded(float(data.get("reward") or 0.0))
    return [step, tool, json.dumps(arguments), outcome, reward, rounded(total)]


def build_web_ui(web_manager: Any, *_: Any, **__: Any) -> gr.Blocks:
    """OpenEnv `gradio_builder`: called with the web manager (other arguments unused)."""
    task_names = list(TASKS)

    async def reset(task: str, seed: float | None) -> Outputs:
        kwargs: dict[str, Any] = {"task": task}
        if seed is not None:
            kwargs["seed"] = int(seed)
        try:
            data = await web_manager.reset_environment(kwargs)
        except ValueError as exc:
            return gr.skip(), gr.skip(), f"Error: {exc}", *(gr.skip(),) * 4
        shown = format_observation(data), json.dumps(data, indent=2)
        observation = data.get("observation") or {}
        return *shown, f"Reset: {task}", _tools(data), [], [], observation

    async def call_tool(
        tool: str | None, arguments: str, history: list[list], observation: dict[str, Any]
    ) -> Outputs:
        if not tool:
            return gr.skip(), gr.skip(), "Pick a tool first.", *(gr.skip(),) * 4
        try:
            parsed = parse_arguments(arguments)
            action = {"tool_name": tool, "arguments": parsed}
            data = await web_manager.step_environment({"type": "call_tool", **action})
        except ValueError as exc:
            return gr.skip(), gr.skip(), f"Error: {exc}", *(gr.skip(),) * 4
        total = sum(float(row[4]) for row in history) + float(data.get("reward") or 0.0)
        rows = [*history, history_row(data, tool, parsed, total)]
        shown = format_observation(data), json.dumps(data, indent=2)
        merged = {**observation, **(data.get("observation") or {})}
        return *shown, f"Called {tool}", _tools(data, keep=tool), rows, rows, merged

    def template(tool: str | None, observation: dict[str, Any]) -> str:
        if not tool or tool not in CATALOGUE:
            return gr.skip()
        return json.dumps(argument_template(tool, observation or {}))

    with gr.Blocks(title="NovaMart") as page:
        gr.Markdown(
            "# NovaMart customer service\nPick a task and reset, then call tools. "
            "Policy analysts: the [policy workbench](/workbench) explains decisions."
        )
        with gr.Row():
            task = gr.Radio(task_names, value=task_names[0], label="Task")
            seed = gr.Number(value=0, precision=0, minimum=0, label="Seed")
            reset_button = gr.Button("Reset", variant="secondary")
        tool = gr.Radio(list(TASKS[task_names[0]].tools), label="Tool")
        arguments = gr.Textbox(value="{}", label="Arguments (JSON object)", lines=2)
        call_button = gr.Button("Call tool", variant="primary")
        status = gr.Textbox(label="Status", interactive=False)
        table = gr.Dataframe(
            headers=HISTORY_HEADERS,
            type="array",
            label="Steps so far",
            interactive=False,
            elem_id="history",
        )
        observation = gr.Markdown("Reset to start an episode.", elem_id="observation")
        raw = gr.Code(label="Raw response", language="json", interactive=False)
        history = gr.State([])
        seen = gr.State({})
        outputs = [observation, raw, status, tool, table, history, seen]
        reset_button.click(reset, inputs=[task, seed], outputs=outputs)
        call_button.click(call_tool, inputs=[tool, arguments, history, seen], outputs=outputs)
        tool.input(template, inputs=[tool, seen], outputs=[arguments])
    return page
