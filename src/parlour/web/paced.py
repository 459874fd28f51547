"""uvicorn's WebSocket protocol, parsing what a client sent only as fast as the application reads it.

Why: uvicorn's own protocol (websockets' sans-I/O one) parses every frame of a read as it
arrives -- up to 256 KB at once, ten thousand small messages queued in one go -- and goes on
parsing everything a client sends for ten seconds after the server closed it, until the closing
handshake ends.  A flooding client was then the server's CPU however the application limited
it: 500 of them put the p99 of 50 playing tables over 100 ms (bench/bench_web_abuse.py).  Here
a read waits, raw, until the application has taken the messages before it, and is parsed
``FEED`` bytes at a time; after the server's close the client's data is not read at all.  A
rate-limited connection (``play.Connection.read_loop``) then costs what its rate allows.
"""

from __future__ import annotations

from typing import Any

from uvicorn._types import ASGIReceiveEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

FEED = 1024  # bytes parsed at a time while the application has messages to read (a few messages)


class PacedWebSockets(WebSocketsSansIOProtocol):
    """``uvicorn.Config(ws=PacedWebSockets)``: reading paced by the application's reading."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.unparsed = bytearray()  # read from the socket, not yet parsed (at most one read: reading pauses)

    def data_received(self, data: bytes) -> None:
        if self.close_sent and self.handshake_complete:
            self.transport.close()  # closing: nothing the client says now matters, not even its close reply
            return
        self.unparsed += data
        self._feed()

    def _feed(self) -> None:
        """Parse until the application has a message to read (or nothing is left); reading waits meanwhile."""
        while self.unparsed and self.queue.empty() and not self.transport.is_closing():
            chunk = bytes(self.unparsed[:FEED])
            del self.unparsed[:FEED]
            super().data_received(chunk)
        if self.unparsed and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    async def receive(self) -> ASGIReceiveEvent:
        message = await self.queue.get()
        if self.queue.empty() and self.unparsed:
            self._feed()
        if self.read_paused and self.queue.empty() and not self.unparsed:
            self.read_paused = False
            self.transport.resume_reading()
        return message
