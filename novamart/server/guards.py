"""Input guards in front of OpenEnv's routes: payloads it mishandles get a typed error.

OpenEnv (0.3 through 0.10) ends a WebSocket session when a frame is binary (`receive_text`
fails) or is JSON but not an object (`.get` on a list), and passes a request body of any size on to
pydantic and the environment. This ASGI middleware answers such input itself, in the
protocol of the route it was sent to, and lets the session go on. Frames and bodies that
pass are handed through unchanged (binary frames that are valid UTF-8 are handed on as
text, so a client that sends JSON as bytes works too). It also drops OpenEnv's `close`
after the client has already gone, which would otherwise log a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from enum import StrEnum
from typing import Any

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Message, Receive, Send], Awaitable[None]]

SESSION_PATH = "/ws"
MCP_PATH = "/mcp"
HTTP_API_PATHS = frozenset({"/reset", "/step", MCP_PATH, "/web/reset", "/web/step"})
MAX_DEPTH = 64
JSONRPC_PARSE_ERROR = -32700
JSONRPC_INVALID_REQUEST = -32600


class PayloadProblem(StrEnum):
    """Why a payload was refused; the value is the error code a client sees."""

    TOO_LARGE = "MESSAGE_TOO_LARGE"
    NOT_UTF8 = "INVALID_ENCODING"
    NOT_OBJECT = "INVALID_JSON"


def _describe(problem: PayloadProblem, limit: int) -> str:
    if problem is PayloadProblem.TOO_LARGE:
        return f"Message too large: the limit is {limit} bytes"
    if problem is PayloadProblem.NOT_UTF8:
        return "Message is not valid UTF-8 text"
    return f"Message must be a JSON object, nested at most {MAX_DEPTH} levels deep"


def _jsonrpc_error(problem: PayloadProblem, limit: int) -> dict[str, Any]:
    code = JSONRPC_PARSE_ERROR if problem is PayloadProblem.NOT_UTF8 else JSONRPC_INVALID_REQUEST
    error = {"code": code, "message": _describe(problem, limit), "data": {"reason": problem}}
    return {"jsonrpc": "2.0", "id": None, "error": error}


def _session_error(problem: PayloadProblem, limit: int) -> dict[str, Any]:
    return {"type": "error", "data": {"message": _describe(problem, limit), "code": problem}}


def _http_error(problem: PayloadProblem, limit: int) -> tuple[int, dict[str, Any]]:
    status = 413 if problem is PayloadProblem.TOO_LARGE else 400
    return status, {"detail": _describe(problem, limit), "code": problem}


def _check(payload: bytes | str, limit: int) -> PayloadProblem | None:
    size = len(payload) if isinstance(payload, bytes) else len(payload.encode("utf-8"))
    if size > limit:
        return PayloadProblem.TOO_LARGE
    if isinstance(payload, bytes):
        try:
            payload.decode("utf-8")
        except UnicodeDecodeError:
            return PayloadProblem.NOT_UTF8
    return None


def _nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest, counted without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _is_shallow_object(text: str) -> bool:
    """A JSON object OpenEnv can parse: a deeply nested frame or a huge number would make
    its parser raise outside its error handling and end the session."""
    if not text.lstrip().startswith("{"):
        return False
    brackets = text.count("{") + text.count("[")  # cheap: only count depth when it could matter
    if brackets > MAX_DEPTH and _nesting(text) > MAX_DEPTH:
        return False
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError):
        return False


class PayloadGuard:
    """ASGI middleware: refuses payloads over `max_bytes`, not UTF-8, or (frames) not a JSON
    object, on the OpenEnv API routes."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "websocket" and path in (SESSION_PATH, MCP_PATH):
            await self._guard_session(scope, receive, send)
        elif scope["type"] == "http" and path in HTTP_API_PATHS:
            await self._guard_body(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _guard_session(self, scope: Message, receive: Receive, send: Send) -> None:
        """Runs a WebSocket route with bad frames answered here and late closes dropped."""
        reply = _jsonrpc_error if scope["path"] == MCP_PATH else _session_error
        client_gone = False

        async def receive_checked() -> Message:
            nonlocal client_gone
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    client_gone = message["type"] == "websocket.disconnect"
                    return message
                text, problem = self._read_frame(message)
                if problem is None:
                    return {"type": "websocket.receive", "text": text}
                body = json.dumps(reply(problem, self.max_bytes))
                await send({"type": "websocket.send", "text": body})

        async def send_unless_gone(message: Message) -> None:
            if not (client_gone and message["type"] == "websocket.close"):
                await send(message)

        await self.app(scope, receive_checked, send_unless_gone)

    def _read_frame(self, message: Message) -> tuple[str, PayloadProblem | None]:
        """The frame as text, or what is wrong with it."""
        payload = message.get("text")
        if payload is None:
            payload = message.get("bytes") or b""
        problem = _check(payload, self.max_bytes)
        if problem is not None:
            return "", problem
        text = payload.decode("utf-8") if isinstance(payload, bytes) else payload
        if not _is_shallow_object(text):
            return "", PayloadProblem.NOT_OBJECT
        return text, None

    async def _guard_body(self, scope: Message, receive: Receive, send: Send) -> None:
        """Reads the body (at most `max_bytes` + 1 of it), then refuses it or replays it."""
        chunks: list[bytes] = []
        size = 0
        more = True
        while more and size <= self.max_bytes:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending its body
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        problem = _check(body, self.max_bytes)
        if problem is not None:
            await self._refuse(scope["path"], problem, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, path: str, problem: PayloadProblem, send: Send) -> None:
        if path == MCP_PATH:
            status, payload = 200, _jsonrpc_error(problem, self.max_bytes)
        else:
            status, payload = _http_error(problem, self.max_bytes)
        body = json.dumps(payload).encode("utf-8")
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
