"""The browser server's HTTP guard: which hosts, origins and bodies it accepts, and every response's headers.

Why pure ASGI layers outside FastAPI's own error handler (``Guarded``): a response made by
one of these layers or by Starlette's handler of a failure (the 500) must carry the same
security headers as a page, and a body must be counted as it arrives, whatever its framing,
before any of the application reads it.  (A refused WebSocket handshake is answered by uvicorn
itself, a bare 403: see ``DenialAsClose``.)
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .assets import FOREVER

log = logging.getLogger("parlour.web")

#: The names this machine is reached by from itself: what a loopback server accepts in ``Host``.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1", "[::1]")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
SECURITY_HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff",
                    "referrer-policy": "no-referrer"}
NO_STORE = "no-store"
REVALIDATE = "no-cache"  # the unversioned /static/ paths: a page of an older release may still ask for them


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a ``--host`` address or name) is reachable from this machine only."""
    bare = host.strip("[]").lower()
    if bare == "localhost":
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def trusted_hosts(bind: str, names: Sequence[str] = ()) -> list[str]:
    """The ``Host`` names the server answers to: ``names``, the loopback names, and a loopback ``bind``.

    Why: a page of any site can have its own domain name resolve to this server's address (DNS
    rebinding); its requests then carry that name in ``Host`` and, being same-origin for the
    browser, pass the ``Origin`` check.  Only names the server was told about are accepted.  A
    server listening beyond this machine has no safe default: it needs the names people type
    (a ValueError says so).
    """
    if not is_loopback(bind) and not names:
        raise ValueError(f"--host {bind} is reachable from other machines: name the host names people "
                         "will type in the address bar with --allowed-host NAME (repeatable)")
    out: list[str] = []
    for name in [*names, *LOOPBACK_NAMES, *([bind] if is_loopback(bind) else [])]:
        bare = name.strip().strip("[]").lower()
        for form in ([bare, f"[{bare}]"] if ":" in bare else [bare]):  # an IPv6 address comes in brackets
            if form and form not in out:
                out.append(form)
    return out


def client_address(scope: Scope) -> str | None:
    """The client's address as the server sees it (a proxy's ``X-Forwarded-For`` only from a ``--proxy``).

    Why here: uvicorn replaces ``scope["client"]`` with the forwarded address only for the
    proxies it was told to trust (``forwarded_allow_ips``), so this is the address a per-address
    limit may count and a log line may name.
    """
    client = scope.get("client")
    return str(client[0]) if client else None


def refused(scope: Scope, reason: str) -> None:
    """The one short log line of a refused request or message (no traceback: it is not our failure)."""
    log.info("refused %s from %s: %s", scope.get("path", "?"), client_address(scope), reason)


class ClientFaultsInOneLine(logging.Filter):
    """uvicorn's report of a client's invalid UTF-8 in a WebSocket text, as one line without a traceback.

    Why: uvicorn closes that connection itself (1007), as it should, but logs the decoding's
    traceback as an error: anyone could fill the log with it, and it is the client's fault.
    """

    MESSAGES = frozenset({"Invalid UTF-8 sequence received from client."})

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self.MESSAGES:
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def quiet_client_faults() -> None:
    """Put ``ClientFaultsInOneLine`` on uvicorn's error log (once: uvicorn's log set-up keeps filters)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ClientFaultsInOneLine) for f in logger.filters):
        logger.addFilter(ClientFaultsInOneLine())


def origin_ok(origin: str | None, host: str | None, allowed: set[str]) -> bool:
    """A WebSocket may come from our own page (same host:port), a listed origin, or a non-browser client."""
    if origin is None:
        return True  # not a browser: browsers always send Origin on a WebSocket
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class SecurityHeaders:
    """Every response (pages, API, static files, errors, refused handshakes) gets the security headers.

    Why these caches: a file under the versioned static path never changes (``assets``), so a
    browser keeps it a year; everything else (the API, a table's page) is per table or per
    moment and is never stored.
    """

    def __init__(self, app: ASGIApp, *, immutable: str) -> None:
        self.app = app
        self.immutable = immutable.rstrip("/") + "/"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        cache = FOREVER if path.startswith(self.immutable) else REVALIDATE if path.startswith("/static/") \
            else NO_STORE

        async def send_with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                headers["cache-control"] = cache
                message = {**message, "headers": headers.raw}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class DenialAsClose:
    """A WebSocket handshake refused with an HTTP response (the trusted-host check's 400) is refused by a close.

    Why: uvicorn (0.54) sends such a response but leaves the handshake open in its own books, then
    logs an error and tries a 500 on the closed connection, for every refused handshake; a close
    before accepting is its ordinary refusal (a 403, one access-log line at the most).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return

        async def send_closing(message: Message) -> None:
            if message["type"] == "websocket.http.response.start":
                refused(scope, f"a WebSocket answered {message['status']}")
                await send({"type": "websocket.close", "code": 1008})
            elif message["type"] != "websocket.http.response.body":
                await send(message)

        await self.app(scope, receive, send_closing)


class SameOrigin:
    """A POST (creating a table) only from our own page, a listed origin or a non-browser client."""

    def __init__(self, app: ASGIApp, *, allowed: set[str]) -> None:
        self.app, self.allowed = app, allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = Headers(scope=scope)
            if not origin_ok(headers.get("origin"), headers.get("host"), self.allowed):
                refused(scope, "another site's page")
                await JSONResponse({"error": "this page may not create tables here"}, status_code=403)(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """A request body is read here, counted as it arrives, and refused (413) once past ``limit`` bytes.

    Why here and not from ``Content-Length``: a chunked body declares no length, and was read and
    parsed in full whatever its size.  The refusal closes the connection, so the rest of the
    body is never read; the application is handed the body read so far, whole.
    """

    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self.too_large(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: the application hears it
                first: Message = message
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self.too_large(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                first = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        pending = [first]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused(scope, f"a body over {self.limit} bytes")
        response = JSONResponse({"error": "request too large"}, status_code=413, headers={"connection": "close"})
        await response(scope, receive, send)


Layer = Callable[[ASGIApp], ASGIApp]


class Guarded(FastAPI):
    """A FastAPI application wrapped in ``outer`` layers (the first outermost) outside its own error handler.

    Why: FastAPI's middlewares run inside Starlette's handler of failures, so the 500 it makes
    would pass none of them; these layers see every response.
    """

    def __init__(self, *, outer: Sequence[Layer], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.outer = list(outer)

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        for layer in reversed(self.outer):
            app = layer(app)
        return app
