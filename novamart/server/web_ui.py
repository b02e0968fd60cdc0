"""The NovaMart tab of OpenEnv's web interface (/web): pick a task, reset, call tools.

OpenEnv's generic playground renders CallToolAction.arguments (a dict) as a plain text box
and cannot send it, so NovaMart mounts this page instead: the tools offered are the
observation's `available_actions`, arguments are typed as a JSON object, and every
observation field is shown. It drives OpenEnv's WebInterfaceManager, i.e. the one shared
episode of the web page.
"""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from novamart.scenarios.tasks import TASKS

Outputs = tuple[Any, Any, str, Any]
REPEATED = {"result"}  # CallToolObservation.result is NovaMart's last_tool_result again


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "`" + json.dumps(value, default=str) + "`"


def format_observation(data: dict[str, Any]) -> str:
    """Markdown of an OpenEnv response: reward, done, then each non-empty observation field."""
    lines = [f"**reward:** `{data.get('reward')}` · **done:** `{data.get('done')}`", ""]
    observation = data.get("observation") or {}
    for name, value in observation.items():
        if name not in REPEATED and value not in (None, "", [], {}):
            lines.append(f"- **{name}:** {_render(value)}")
    return "\n".join(lines)


def parse_arguments(text: str) -> dict[str, Any]:
    """The arguments box as a JSON object; empty means no arguments."""
    if not text.strip():
        return {}
    parsed = json.loads(text)
    if not isinstance(parsed, dict):
        raise ValueError('arguments must be a JSON object, e.g. {"order_id": "ORD-1"}')
    return parsed


def _tools(data: dict[str, Any], keep: str | None = None) -> gr.Radio:
    """The tool picker, offering the tools the observation says are callable now."""
    available = (data.get("observation") or {}).get("available_actions") or []
    return gr.Radio(choices=available, value=keep if keep in available else None)


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
            return gr.skip(), gr.skip(), f"Error: {exc}", gr.skip()
        shown = format_observation(data), json.dumps(data, indent=2)
        return *shown, f"Reset: {task}", _tools(data)

    async def call_tool(tool: str | None, arguments: str) -> Outputs:
        if not tool:
            return gr.skip(), gr.skip(), "Pick a tool first.", gr.skip()
        try:
            action = {"tool_name": tool, "arguments": parse_arguments(arguments)}
            data = await web_manager.step_environment({"type": "call_tool", **action})
        except ValueError as exc:
            return gr.skip(), gr.skip(), f"Error: {exc}", gr.skip()
        shown = format_observation(data), json.dumps(data, indent=2)
        return *shown, f"Called {tool}", _tools(data, keep=tool)

    with gr.Blocks(title="NovaMart") as page:
        gr.Markdown("# NovaMart customer service\nPick a task and reset, then call tools.")
        with gr.Row():
            task = gr.Radio(task_names, value=task_names[0], label="Task")
            seed = gr.Number(value=0, precision=0, minimum=0, label="Seed")
            reset_button = gr.Button("Reset", variant="secondary")
        tool = gr.Radio(list(TASKS[task_names[0]].tools), label="Tool")
        arguments = gr.Textbox(value="{}", label="Arguments (JSON object)", lines=2)
        call_button = gr.Button("Call tool", variant="primary")
        status = gr.Textbox(label="Status", interactive=False)
        observation = gr.Markdown("Reset to start an episode.", elem_id="observation")
        raw = gr.Code(label="Raw response", language="json", interactive=False)
        outputs = [observation, raw, status, tool]
        reset_button.click(reset, inputs=[task, seed], outputs=outputs)
        call_button.click(call_tool, inputs=[tool, arguments], outputs=outputs)
    return page
