"""The NovaMart tab of OpenEnv's web interface (/web): a researcher plays an episode by hand.

A case card (customer, order, issue; facts appear as tools reveal them), the conversation as
a chat, the tools callable now, each tool's arguments as a form built from its schema (see
novamart.server.web_form), a table of the steps with their rounded rewards, and at the end a
panel with the final score, why it ended, each grade term's note and the optimum.

Each browser tab plays its own episode: the tab's Gradio session holds a NovamartEnvironment
from a bounded pool (novamart.server.web_episodes), not OpenEnv's one shared environment of
the WebInterfaceManager, which this page does not use. Analysts have their own page, the
policy workbench (/workbench).
"""

from __future__ import annotations

from typing import Any

import gradio as gr
from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction

from novamart.episode import Episode
from novamart.kernel import Rulebook, default_kernel
from novamart.models import NovamartObservation
from novamart.scenarios import MODES
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import CATALOGUE, SessionEnded, listed_schema
from novamart.server.web_episodes import NoEpisodeFree, WebEpisode, WebEpisodes
from novamart.server.web_form import (
    Field,
    FormProblem,
    Kind,
    arguments_from,
    fields_of,
    initial_value,
    json_template,
)
from novamart.server.web_panels import (
    STEP_HEADERS,
    case_card,
    chat_messages,
    ending_panel,
    long_instructions,
    result_text,
    step_row,
)

CSS = """
#steps table { table-layout: fixed; width: 100%; }
#steps td, #steps th { overflow-wrap: anywhere; white-space: normal; }
#episode-end { border: 2px solid var(--color-accent); border-radius: 8px; padding: 12px; }
#episode-end td:nth-child(-n+2), #episode-end th { white-space: nowrap; }
"""
NO_PREFILL = "nothing is filled in for you"
STEP_WIDTHS = ["7%", "18%", "35%", "18%", "11%", "11%"]


def form_fields() -> dict[str, Field]:
    """One input per argument name across every tool (the same name means the same input:
    an order id typed once stays), read from the schemas the serving rules list. A name of
    two kinds (a listed reason in one tool, free text in another) gets a text box, which
    takes either (the tool checks the value and answers a bad one with a typed error)."""
    rulebook = default_kernel().snapshot().rulebook
    by_name: dict[str, Field] = {}
    for tool in CATALOGUE:
        for field in fields_of(listed_schema(tool, rulebook)):
            known = by_name.setdefault(field.name, field)
            if known.kind != field.kind:
                by_name[field.name] = merged(known, field)
    return by_name


def merged(one: Field, other: Field) -> Field:
    """The input for an argument name two tools type differently."""
    kinds = {one.kind, other.kind}
    if kinds <= {"choice", "text", "long_text"}:
        kind: Kind = "long_text" if "long_text" in kinds else "text"
        choices = sorted(set(one.choices) | set(other.choices))
        about = one.description or other.description
        listed = f" (for some tools one of: {', '.join(choices)})" if choices else ""
        return Field(one.name, kind, one.required and other.required, about + listed)
    raise ValueError(
        f"argument {one.name} is {one.kind} in one tool and {other.kind} in another; the "
        "form needs one input kind"
    )


def _input(field: Field) -> gr.components.Component:
    common: dict[str, Any] = {"label": field.label, "info": field.description, "visible": False}
    common["elem_id"] = f"arg-{field.name}"
    if field.kind == "choice":
        return gr.Dropdown(choices=list(field.choices), value=None, **common)
    if field.kind in ("number", "integer"):  # a text box: gr.Number sends 0 when left empty
        return gr.Textbox(value="", placeholder=f"a number; {NO_PREFILL}", **common)
    if field.kind == "boolean":
        return gr.Checkbox(value=False, **common)
    lines = 1 if field.kind == "text" else 4
    return gr.Textbox(value="", lines=lines, **common)


def tool_fields(env: Any, tool: str | None) -> list[Field]:
    """``tool``'s form under the rules the episode plays (check_policy's policies, ...)."""
    if not tool:
        return []
    listed = env.step(ListToolsAction()).tools
    schema = next((t.input_schema for t in listed if t.name == tool), None)
    return fields_of(schema) if schema else []


def _rulebook(env: Any) -> Rulebook | None:
    """The rules an order case plays (for the clause that grants its optimum)."""
    hidden = env.episode
    return hidden.rules.rulebook if isinstance(hidden, Episode) else None


def build_web_ui(
    web_manager: Any, *_: Any, max_episodes: int = 64, idle_s: float = 300.0, **__: Any
) -> gr.Blocks:
    """OpenEnv's `gradio_builder` (its web manager unused: each tab has its own episode);
    ``max_episodes`` tabs play at once, a tab idle ``idle_s`` seconds loses its episode."""
    pool = WebEpisodes(cap=max_episodes, idle_s=idle_s)
    inputs_by_name = {}
    task_names = list(TASKS)

    with gr.Blocks(title="NovaMart") as page:
        gr.HTML(f"<style>{CSS}</style>", padding=False)  # OpenEnv's mount sets the page's css
        gr.Markdown(
            "# NovaMart customer service\nPick a task and start an episode, then call tools "
            "as the agent would. This tab plays its own episode. Policy analysts: the "
            "[policy workbench](/workbench) explains decisions."
        )
        with gr.Row():
            task = gr.Dropdown(task_names, value=task_names[0], label="Task", scale=2)
            seed = gr.Textbox(value="", label="Seed", placeholder="empty: canonical case", scale=1)
            mode = gr.Radio(list(MODES), value="guided", label="Mode (order cases)", scale=1)
            reset_button = gr.Button("Start episode", variant="secondary", scale=1)
        task_about = gr.Markdown(TASKS[task_names[0]].description)
        with gr.Row():
            with gr.Column(scale=1):
                card = gr.Markdown("Start an episode to see its case.", elem_id="case")
                with gr.Accordion("Instructions", open=False, visible=False) as handbook:
                    instructions = gr.Markdown("", elem_id="instructions")
                chat = gr.Chatbot(
                    label="Conversation (customer left, agent right)",
                    placeholder="Messages sent with respond_to_customer and the replies.",
                    height=240,
                    elem_id="chat",
                )
            with gr.Column(scale=1):
                tool = gr.Radio([], label="Tool", elem_id="tool")
                about = gr.Markdown("", elem_id="tool-about")
                for name, field in form_fields().items():
                    inputs_by_name[name] = _input(field)
                call_button = gr.Button("Call tool", variant="primary")
                status = gr.Markdown("", elem_id="status")
                result = gr.Markdown("", elem_id="result")
        with gr.Column(visible=False, elem_id="episode-end") as end:
            ending = gr.Markdown("")
        steps = gr.Dataframe(
            headers=STEP_HEADERS,
            type="array",
            label="Steps so far",
            interactive=False,
            wrap=True,
            column_widths=STEP_WIDTHS,
            elem_id="steps",
        )
        held = gr.State(None, time_to_live=idle_s, delete_callback=pool.close)
        form = list(inputs_by_name.values())

        def shown(episode: WebEpisode, observation: NovamartObservation) -> dict:
            """Every panel after a reset or a step."""
            env = episode.env
            total = env.state.grade
            done = bool(observation.done)
            panel = ending_panel(observation, env.state.grade_terms, _rulebook(env)) if done else ""
            return {
                held: episode,
                card: case_card(observation, total),
                handbook: gr.Accordion(visible=bool(long_instructions(observation))),
                instructions: long_instructions(observation),
                chat: chat_messages(
                    observation.conversation_history, observation.issue_description
                ),
                steps: episode.steps,
                tool: gr.Radio(choices=observation.available_actions, value=None, visible=not done),
                call_button: gr.Button(visible=not done),
                about: "",
                end: gr.Column(visible=done),
                ending: panel,
                **{i: gr.update(visible=False) for i in form},
            }

        def start(task_name: str, seed_text: str, mode_name: str, episode: Any):
            arguments: dict[str, Any] = {"task": task_name}
            if seed_text.strip():
                if not seed_text.strip().isdigit():
                    return {
                        status: f"**Could not start:** the seed is a whole number >= 0, "
                        f"not {seed_text.strip()!r}"
                    }
                arguments["seed"] = int(seed_text)
            if not TASKS[task_name].is_ticket:
                arguments["mode"] = mode_name
            try:
                episode = pool.usable(episode)
                observation = episode.env.reset(**arguments)
            except (NoEpisodeFree, ValueError) as exc:
                return {status: f"**Could not start:** {exc}"}
            episode.steps, episode.last = [], observation
            seeded = f"seed {arguments['seed']}" if "seed" in arguments else "canonical case"
            return {
                **shown(episode, observation),
                result: "",
                status: f"Started **{task_name}** ({seeded}).",
            }

        def pick(name: str | None, episode: Any):
            if episode is None or episode.last is None or not name:
                return {i: gr.update(visible=False) for i in form}
            fields = {f.name: f for f in tool_fields(episode.env, name)}
            case = episode.last.model_dump()
            updates: dict[Any, Any] = {about: f"**{name}**: {CATALOGUE[name][0]}"}
            for arg, component in inputs_by_name.items():
                field = fields.get(arg)
                if field is None:
                    updates[component] = gr.update(visible=False)
                    continue
                info = f"{field.description} (choose one)" if field.choices else field.description
                change: dict[str, Any] = {"visible": True, "label": field.label, "info": info}
                value = initial_value(field, case)
                change["value"] = (
                    value
                    if value is not None
                    else (None if field.kind in ("choice", "boolean") else "")
                )
                if field.kind == "choice":
                    change["choices"] = list(field.choices)
                if field.kind == "json":
                    change["placeholder"] = json_template(field, case)
                updates[component] = gr.update(**change)
            return updates

        def call(name: str | None, episode: Any, *values: Any):
            if not pool.touch(episode):
                return {
                    status: "**No episode in this tab** (none started yet, or it was "
                    f"closed after {idle_s:.0f} s idle): press Start episode."
                }
            if not name:
                return {status: "**Pick a tool first.**"}
            fields = tool_fields(episode.env, name)
            try:
                arguments = arguments_from(fields, dict(zip(inputs_by_name, values, strict=True)))
                observation = episode.env.step(CallToolAction(tool_name=name, arguments=arguments))
            except FormProblem as exc:
                return {status: f"**Not sent** (no step used): {exc}"}
            except SessionEnded as exc:
                return {status: f"**{exc}**"}
            assert isinstance(observation, NovamartObservation)
            episode.last = observation
            episode.steps = [
                *episode.steps,
                step_row(observation, arguments, episode.env.state.grade),
            ]
            over = " The episode is over: start another above." if observation.done else ""
            return {
                **shown(episode, observation),
                result: result_text(observation, fields),
                status: f"Called **{name}**.{over}",
            }

        everything = [held, card, handbook, instructions, chat, steps, tool, call_button, about]
        everything += [end, ending, result]
        everything += [status, *form]
        reset_button.click(start, inputs=[task, seed, mode, held], outputs=everything)
        task.change(
            lambda t: (TASKS[t].description, gr.Radio(visible=not TASKS[t].is_ticket)),
            inputs=[task],
            outputs=[task_about, mode],
        )
        tool.input(pick, inputs=[tool, held], outputs=[about, *form])
        call_button.click(call, inputs=[tool, held, *form], outputs=everything)
    return page
