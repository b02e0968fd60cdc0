"""One retail conversation (issue 20): the world its writes change, the customer it talks
with, and the trail its grader reads.

The world is the seed's (novamart.scenarios.retail_world); the customer, its wishes and the
optimum are the task's (retail_requests, retail_customer). The session holds what changes in
an episode: the world after the writes carried out, where the talk stands, who the agent has
authenticated, the last yes and the message it answered, and the trail. The tools
(novamart.retail.tools) read and change it; grading (novamart.retail.grade) compares its final
world with the optimum's and reads its trail.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from novamart.kernel import CompiledRulebook
from novamart.retail.trail import Message, Step, Trail
from novamart.scenarios import Mode
from novamart.scenarios import retail_customer as scripted
from novamart.scenarios.retail_customer import Profile, RetailCustomer, ScriptedCustomer, Talk
from novamart.scenarios.retail_requests import RetailTask
from novamart.scenarios.retail_world import World, retail_kernel


@dataclass(frozen=True)
class Attempt:
    """A write the gate did not carry out: what a later ``decline`` or escalation is about."""

    resolution: str
    order_id: str
    status: str
    """The kernel's outcome on the world (declined, refused, undetermined)."""
    instead: str | None
    """The resolution the kernel grants instead (the declining one, or its best answer)."""


@dataclass
class RetailSession:
    task: RetailTask
    profile: Profile
    mode: Mode
    max_steps: int
    customer: RetailCustomer
    world: World
    talk: Talk
    trail: Trail = field(default_factory=Trail)
    step: int = 0
    identified: str | None = None
    """The customer the agent authenticated (find_customer), if any."""
    yes_to: str | None = None
    """The agent's message the customer's last reply said yes to (cleared by the next
    message and by a write carried out): a write is confirmed only if it lists that write."""
    attempt: Attempt | None = None
    checked: set[str] = field(default_factory=set)
    """The items the defect check ran on (what the gate may count a fault of)."""
    conversation: list[str] = field(default_factory=list)
    tools_used: list[str] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        task: RetailTask,
        profile: Profile,
        mode: Mode,
        max_steps: int,
        customer: RetailCustomer | None = None,
    ) -> RetailSession:
        opening = scripted.opening(profile)
        return cls(
            task=task,
            profile=profile,
            mode=mode,
            max_steps=max_steps,
            customer=customer or ScriptedCustomer(),
            world=task.world,
            talk=scripted.start(profile),
            conversation=[f"customer: {opening}"],
        )

    @property
    def kernel(self) -> CompiledRulebook:
        """The rules the task plays (as written, or its policy variant)."""
        return retail_kernel(self.task.rules)

    @property
    def opening(self) -> str:
        return self.conversation[0].removeprefix("customer: ")

    @property
    def done(self) -> bool:
        return self.talk.closed or self.step >= self.max_steps

    def record(self, step: Step) -> None:
        self.trail = self.trail.add(step)

    def say(self, text: str) -> str:
        """Send the customer ``text``; its reply, and whether the reply is the yes."""
        self.trail = self.trail.say(Message(self.step, text))
        self.conversation.append(f"agent: {text}")
        self.talk, answer = self.customer.reply(self.profile, self.talk, text)
        self.conversation.append(f"customer: {answer}")
        return answer
