"""The app's HTTP middleware of its own: the request body's size limit and the security
headers of every answer, and which requests count against an address's request rate."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response

__all__ = ["MAX_BODY", "BodyLimit", "charged", "security_headers"]

MAX_BODY = 16 * 1024


class BodyLimit:
    """Refuse request bodies above ``MAX_BODY`` bytes, declared or streamed."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                await _too_large(send)
                return
        seen = 0
        over = answered = False

        async def limited() -> Any:
            nonlocal seen, over
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    over = True
                    raise _TooLarge
            return msg

        async def answer(msg: Any) -> None:
            # a body streamed past the limit (chunked: no length declared) is a 413 whatever
            # the app made of the interrupted read (FastAPI answers 400 to a failed parse)
            nonlocal answered
            if over:
                if not answered:
                    answered = True
                    await _too_large(send)
                return
            answered = True
            await send(msg)

        try:
            await self.app(scope, limited, answer)
        except _TooLarge:
            if not answered:
                await _too_large(send)


class _TooLarge(Exception):
    pass


async def _too_large(send: Callable[[Any], Awaitable[None]]) -> None:
    body = b'{"error":"too_large","reason":"request body too large"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def security_headers(request: Request,
                           call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    resp = await call_next(request)
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "same-origin"
    resp.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self' ws: wss:; frame-ancestors 'none'")
    return resp


def charged(method: str, path: str) -> bool:
    """Whether an HTTP request counts against the address's request rate: not the calls
    with a bucket of their own (creating and joining tables, invite-code lookups)."""
    if path.startswith("/api/code/"):
        return False
    return not (method == "POST" and (path in ("/api/play", "/api/tables")
                                      or path.endswith("/join")))
