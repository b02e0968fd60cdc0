"""Two real TRL GRPO steps on NovaMart, on the CPU, with nothing downloaded from a model hub.

Run by ``make train-smoke`` in its own virtual environment (torch, TRL, NovaMart; see
scripts/train-smoke.sh). A byte-level BPE tokenizer is trained on the fly on NovaMart's own
text, given TRL's copy of the Qwen2.5 chat template (so TRL parses tool calls as it does for
Qwen), and a tiny Qwen2 is built from a config with random weights. A random model emits
no tool calls, so the generation step is scripted: it reads the decoded prompt and writes
tool-call text (with some noise, so a GRPO group's rewards differ). Everything else is
TRL's: the chat template, the tool-call parser, the tool loop calling NovaMart through
``novamart.training``, ``get_reward``, the advantages, the loss and the optimizer.

Checks: tool calls reached NovaMart, the rewards are grades in [0, 1] and differ within a
group, and every weight tensor changed. Prints one summary line and exits 1 on a failure.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
import time
from importlib.resources import files

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from tokenizers import decoders as token_decoders
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
from trl import GRPOConfig, GRPOTrainer

from novamart.training.dataset import dataset_rows, make_dataset
from novamart.training.trl_env import ENVIRONMENTS, NovamartToolEnv

TASKS = ("easy_refund", "ticket_triage")
STEPS = 2
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
ORDER_ID = re.compile(r"order_id: (ORD-\d+)")
PRICE = re.compile(r'"price": ([0-9.]+)')
CALLS: list[str] = []
"""Every tool call that reached NovaMart, by name (counted in the environments below)."""


def counted(cls: type[NovamartToolEnv]) -> type[NovamartToolEnv]:
    """``cls`` with each tool call recorded, so the check sees what reached NovaMart."""

    def wrap(name: str):
        original = getattr(cls, name)

        def tool(self, **arguments):
            CALLS.append(name)
            return original(self, **arguments)

        tool.__name__, tool.__doc__ = name, original.__doc__
        tool.__signature__ = original.__signature__
        tool.__annotations__ = original.__annotations__
        return tool

    tools = [n for n in vars(cls) if not n.startswith("_") and callable(getattr(cls, n))]
    return type(cls.__name__, (cls,), {n: wrap(n) for n in tools if n != "TASKS"})


def corpus() -> list[str]:
    """Text the tokenizer learns from: NovaMart's prompts, briefs and tool results."""
    texts = []
    for row in dataset_rows("train", tasks=TASKS, stop=200):
        env = ENVIRONMENTS[row["environment"]]()
        texts.append(row["prompt"][0]["content"])
        texts.append(env.reset(task=row["task"], seed=row["seed"]))
        observation = env.episode.observation
        if observation.order_id:
            texts.append(env.lookup_order(order_id=observation.order_id))
    for cls in ENVIRONMENTS.values():
        texts += [getattr(cls, n).__doc__ or "" for n in vars(cls) if not n.startswith("_")]
    return texts


def build_tokenizer() -> PreTrainedTokenizerFast:
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = token_decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=2048,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(corpus(), trainer=trainer)
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        padding_side="left",
    )
    wrapped.chat_template = (files("trl") / "chat_templates" / "qwen2_5.jinja").read_text()
    return wrapped


def build_model(vocab_size: int) -> Qwen2ForCausalLM:
    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=vocab_size,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=16384,
        tie_word_embeddings=True,
    )
    return Qwen2ForCausalLM(config)


def tool_call(name: str, **arguments: object) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


class ScriptedGRPOTrainer(GRPOTrainer):
    """GRPO with each generation written by a noisy script instead of sampled (TRL 1.16's
    ``_generate_single_turn``: one completion per prompt)."""

    rng = random.Random(0)

    def _next_turn(self, text: str) -> str:
        turns = text.count("<tool_response>")
        if "classify_ticket" in text and "lookup_order" not in text:
            if turns:
                return "The ticket is routed."
            category = self.rng.choice(["billing", "technical", "returns", "shipping", "account"])
            priority = self.rng.choice(["low", "medium", "high", "urgent"])
            return tool_call("classify_ticket", category=category, priority=priority)
        order = ORDER_ID.search(text)
        order_id = order.group(1) if order else "ORD-000000"
        price = float(PRICE.findall(text)[-1]) if PRICE.search(text) else 1.0
        if turns == 0:
            return tool_call("lookup_order", order_id=order_id)
        if turns == 1:
            amount = price if self.rng.random() < 0.6 else round(price / 2, 2)
            return tool_call("process_refund", order_id=order_id, amount=amount)
        if turns == 2:
            message = f"Thank you for your patience. I have refunded ${price:.2f} in full."
            return tool_call("respond_to_customer", message=message)
        return "Is there anything else I can help with?"

    def _generate_single_turn(self, prompt_ids, images, multimodal_fields, num_generations, **_):
        tokenizer = self.processing_class
        completions = []
        for ids in prompt_ids:
            text = tokenizer.decode(ids, skip_special_tokens=False)
            reply = self._next_turn(text)
            completions.append(
                [*tokenizer.encode(reply, add_special_tokens=False), tokenizer.eos_token_id]
            )
        return completions, None


def main() -> int:
    started = time.perf_counter()
    tokenizer = build_tokenizer()
    model = build_model(len(tokenizer))
    before = {name: p.detach().clone() for name, p in model.named_parameters()}
    environments = {name: counted(ENVIRONMENTS[name]) for name in ("order", "ticket_triage")}
    with tempfile.TemporaryDirectory() as out:
        args = GRPOConfig(
            output_dir=out,
            use_cpu=True,
            bf16=False,
            per_device_train_batch_size=4,
            num_generations=4,
            max_steps=STEPS,
            max_completion_length=2048,
            max_tool_calling_iterations=10,
            learning_rate=1e-2,
            logging_steps=1,
            save_strategy="no",
            report_to="none",
            seed=0,
        )
        trainer = ScriptedGRPOTrainer(
            model=model,
            processing_class=tokenizer,
            args=args,
            train_dataset=make_dataset("train", tasks=TASKS, stop=64),
            environment_factory=environments,
        )
        trainer.train()
    logs = [entry for entry in trainer.state.log_history if "loss" in entry]
    changed = sum(not torch.equal(before[n], p) for n, p in model.named_parameters())
    reward_std = max(entry.get("reward_std", 0.0) for entry in logs)
    rewards = [entry.get("reward", 0.0) for entry in logs]
    problems = []
    if trainer.state.global_step != STEPS:
        problems.append(f"ran {trainer.state.global_step} steps, not {STEPS}")
    if not CALLS:
        problems.append("no tool call reached NovaMart")
    if not all(0.0 <= r <= 1.0 for r in rewards):
        problems.append(f"rewards outside [0, 1]: {rewards}")
    if reward_std <= 0.0:
        problems.append("no group had differing rewards")
    if changed != len(before):
        problems.append(f"only {changed} of {len(before)} weight tensors changed")
    calls = {name: CALLS.count(name) for name in sorted(set(CALLS))}
    print(
        f"train-smoke: {trainer.state.global_step} GRPO steps in "
        f"{time.perf_counter() - started:.1f} s; "
        f"{len(CALLS)} tool calls reached NovaMart {calls}; mean rewards {rewards}; "
        f"max reward std {reward_std:.3f}; {changed}/{len(before)} weight tensors changed"
    )
    for problem in problems:
        print(f"train-smoke FAILED: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
