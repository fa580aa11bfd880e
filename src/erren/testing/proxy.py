"""A TCP proxy that can be cut and restored: a service (Redis) unreachable for a while.

:class:`TcpProxy` listens on a port of 127.0.0.1 and passes every connection through to
``upstream``.  :meth:`TcpProxy.cut` stops listening and aborts every open connection (the
client sees its connection reset, and a new one refused, exactly as when the service's host
is down), :meth:`TcpProxy.stall` keeps every connection open and accepts new ones but passes
no byte either way (packets silently dropped: a partition, a frozen host; TCP delivers them
once the path heals), and :meth:`TcpProxy.restore` listens again on the same port and lets the
held bytes through.  It runs its own event loop
in a thread, so that processes started by a blocking call (``subprocess``, ``time.sleep``)
are served meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from erren.testing.servers import free_port

__all__ = ["TcpProxy"]

T = TypeVar("T")


class TcpProxy:
    """``127.0.0.1:port`` → ``upstream_host:upstream_port``; :attr:`cuts` counts the cuts."""

    def __init__(self, upstream_host: str, upstream_port: int, *, port: int = 0) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.port = port or free_port()
        self.cuts = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tcp-proxy")
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()
        self._flowing: asyncio.Event | None = None  # made in the loop's thread

    # ---------------------------------------------------------------- from any thread
    def start(self) -> TcpProxy:
        """Start the loop's thread and listen."""
        self._thread.start()
        self._call(self._listen())
        return self

    def cut(self) -> None:
        """Refuse new connections and reset the open ones."""
        self.cuts += 1
        self._call(self._cut())

    def stall(self) -> None:
        """Pass no byte either way until :meth:`restore` (connections stay open)."""
        self._call(self._set_flowing(on=False))

    def restore(self) -> None:
        """Listen again (same port) and let bytes flow."""
        self._call(self._listen())
        self._call(self._set_flowing(on=True))

    @property
    def listening(self) -> bool:
        return self._server is not None

    def close(self) -> None:
        """Cut, stop the loop and join its thread."""
        if self._thread.is_alive():
            self._call(self._cut())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> TcpProxy:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _call(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(10)

    # ---------------------------------------------------------------- in the loop's thread
    def _flow(self) -> asyncio.Event:
        if self._flowing is None:
            self._flowing = asyncio.Event()
            self._flowing.set()
        return self._flowing

    async def _set_flowing(self, *, on: bool) -> None:
        if on:
            self._flow().set()
        else:
            self._flow().clear()

    async def _listen(self) -> None:
        if self._server is None:
            self._server = await asyncio.start_server(
                self._link, "127.0.0.1", self.port, reuse_address=True
            )

    async def _cut(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()
        if server is not None:
            await server.wait_closed()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        if self._server is None:  # cut while connecting
            writer.transport.abort()
            up_writer.transport.abort()
            return
        self._links.update((writer, up_writer))
        try:
            flowing = self._flow()
            await asyncio.gather(
                _pipe(reader, up_writer, flowing), _pipe(up_reader, writer, flowing)
            )
        finally:
            for end in (writer, up_writer):
                self._links.discard(end)
                end.transport.abort()


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, flowing: asyncio.Event
) -> None:
    with contextlib.suppress(OSError, ConnectionError):
        while data := await reader.read(65536):
            await flowing.wait()  # stalled: held, as a lost packet is until resent
            writer.write(data)
            await writer.drain()
    writer.transport.abort()
