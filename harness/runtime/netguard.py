"""Fail any network connection attempted while a case runs, naming the destination.

Fakes must be complete and tracing exporters off; this turns a leak into an ``error``
result instead of a call to a model provider.
"""

from __future__ import annotations

import contextlib
import socket


class NetworkBlocked(RuntimeError):
    pass


def _destination(address: object) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return str(address)


@contextlib.contextmanager
def blocked():
    """Within this block, connect(), create_connection() and getaddrinfo() raise NetworkBlocked."""
    saved = (socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo)

    def connect(self, address, *a, **k):
        if self.family == getattr(socket, "AF_UNIX", None):
            return saved[0](self, address, *a, **k)
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def connect_ex(self, address, *a, **k):
        if self.family == getattr(socket, "AF_UNIX", None):
            return saved[1](self, address, *a, **k)
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def create_connection(address, *a, **k):
        raise NetworkBlocked(f"network access blocked: connect to {_destination(address)}")

    def getaddrinfo(host, port, *a, **k):
        raise NetworkBlocked(f"network access blocked: name lookup of {host}:{port}")

    # Replacing the socket methods for the duration is the guard's whole job (mypy refuses
    # assignments to methods unless told).
    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex  # type: ignore[method-assign]
    socket.create_connection, socket.getaddrinfo = create_connection, getaddrinfo
    try:
        yield
    finally:
        original_connect, original_connect_ex, original_create_connection, original_getaddrinfo = saved
        socket.socket.connect, socket.socket.connect_ex = original_connect, original_connect_ex  # type: ignore[method-assign]
        socket.create_connection, socket.getaddrinfo = original_create_connection, original_getaddrinfo
