"""A stand-in for an OpenAI-compatible model server: real HTTP on 127.0.0.1, scripted replies.

It is the one stand-in the project allows (no model is reachable from CI). ``/v1/chat/
completions`` answers each request with what its script returns for it: tool calls, plain
text, a garbage body, an HTTP error, or any of these after a delay. Every request body is
recorded so tests can check what the client sent (tools, temperature, seed, tool results).
Set as a client's HTTPS proxy it also records, and refuses, every tunnel the client asks
for, so a test sees an attempt to reach a real endpoint without anything leaving the
machine.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    """One scripted HTTP answer: a status and a raw body, sent after ``delay_s``."""

    status: int = 200
    body: bytes = b""
    delay_s: float = 0.0


def completion(message: dict[str, Any]) -> Answer:
    body = {
        "id": "chatcmpl-standin",
        "object": "chat.completion",
        "created": 0,
        "model": "standin",
        "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    return Answer(body=json.dumps(body).encode())


def tool_calls(*calls: tuple[str, str]) -> Answer:
    """Tool calls as (name, raw arguments text): the text need not be valid JSON."""
    return completion(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
                for i, (n, a) in enumerate(calls)
            ],
        }
    )


def text(content: str) -> Answer:
    return completion({"role": "assistant", "content": content})


def status(code: int) -> Answer:
    return Answer(status=code, body=b'{"error": {"message": "stand-in failure"}}')


GARBAGE = Answer(body=b"<html>this is not json")
WRONG_JSON = Answer(body=b'{"choices": "nope"}')

Script = Callable[[dict[str, Any], int], Answer]
"""(request body, request index) -> the answer."""


@dataclass
class StandIn:
    url: str
    requests: list[dict[str, Any]] = field(default_factory=list)
    tunnels: list[str] = field(default_factory=list)
    """Hosts a client asked to reach through the stand-in as its HTTPS proxy (``proxy``):
    any attempt to reach the outside shows up here, and is refused."""

    @property
    def proxy(self) -> str:
        """The stand-in as an HTTP(S)_PROXY: it sees every connection a client would open."""
        return self.url.removesuffix("/v1")


def _handler(script: Script, stand_in: StandIn, lock: threading.Lock) -> type:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path != "/v1/chat/completions":
                answer = status(404)
            else:
                body = json.loads(raw)
                with lock:
                    index = len(stand_in.requests)
                    stand_in.requests.append(body)
                answer = script(body, index)
            time.sleep(answer.delay_s)
            try:
                self.send_response(answer.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)
            except OSError:  # the client gave up waiting (a scripted slow reply)
                pass

        def do_CONNECT(self) -> None:
            with lock:
                stand_in.tunnels.append(self.path)
            self.send_response(403)  # never a tunnel to the outside
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextmanager
def serve(script: Script) -> Iterator[StandIn]:
    """Run the stand-in on a free 127.0.0.1 port until the block ends."""
    lock = threading.Lock()
    stand_in = StandIn(url="")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script, stand_in, lock))
    server.daemon_threads = True
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
