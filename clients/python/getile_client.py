"""A small client for getiled, getile's render daemon (proto/PROTOCOL.md).

Needs only Debian's python3-msgpack. Example:

    from getile_client import Client
    with Client("tcp://127.0.0.1:7070") as c:
        c.ping()
        png, stats = c.render_dump(open("frame.ppdmp", "rb").read())
        for key, result in c.submit_many(("a", dump_a), ("b", dump_b)):
            ...  # result is (png, stats) or a GetileError

A Client is one connection; it is not thread-safe (use one per thread).
"""

import itertools
import socket

import msgpack

PROTOCOL_VERSION = 1

# Error codes that do not depend on the request's input: worth a retry.
RETRYABLE_CODES = frozenset({"busy", "shutting_down", "internal", "nomem"})


class GetileError(Exception):
    """An error response (code: the stable code string) or a broken connection (code "connection")."""

    def __init__(self, code, message):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message

    @property
    def retryable(self):
        return self.code in RETRYABLE_CODES or self.code == "connection"


def _connect(addr, timeout):
    if addr.startswith("unix:"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        s.connect(addr[5:])
        return s
    if not addr.startswith("tcp://"):
        raise ValueError("bad server address %r (tcp://HOST:PORT or unix:/PATH)" % addr)
    host, sep, port = addr[6:].rpartition(":")
    if not sep or not host or not port:
        raise ValueError("bad server address %r (tcp://HOST:PORT)" % addr)
    host = host.strip("[]")
    s = socket.create_connection((host, int(port)), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


class Client:
    """One connection to getiled at tcp://HOST:PORT or unix:/PATH."""

    def __init__(self, addr, token=None, timeout=300.0):
        self.addr = addr
        self.token = token
        self._sock = _connect(addr, timeout)
        self._unpacker = msgpack.Unpacker(raw=False, max_buffer_size=1 << 30)
        self._ids = itertools.count(1)
        self._early = {}  # responses that arrived for another request

    def close(self):
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- messages ---------------------------------------------------------

    def _request(self, op, **fields):
        rid = next(self._ids)
        msg = {"v": PROTOCOL_VERSION, "id": rid, "op": op}
        if self.token is not None:
            msg["token"] = self.token
        msg.update({k: v for k, v in fields.items() if v is not None})
        self._sock.sendall(msgpack.packb(msg, use_bin_type=True))
        return rid

    def _read_one(self):
        while True:
            for msg in self._unpacker:
                if not isinstance(msg, dict) or "id" not in msg:
                    raise GetileError("connection", "malformed response from %s" % self.addr)
                return msg
            data = self._sock.recv(1 << 16)
            if not data:
                raise GetileError("connection", "%s closed the connection" % self.addr)
            self._unpacker.feed(data)

    def _wait(self, rid):
        while rid not in self._early:
            msg = self._read_one()
            if msg["id"] == 0 and not msg.get("ok"):
                err = msg.get("error") or {}
                raise GetileError(err.get("code", "?"), err.get("message", ""))
            self._early[msg["id"]] = msg
        return self._early.pop(rid)

    @staticmethod
    def _result(msg):
        if not msg.get("ok"):
            err = msg.get("error") or {}
            return GetileError(err.get("code", "?"), err.get("message", ""))
        outputs = msg.get("outputs") or {}
        return outputs.get("png"), msg.get("stats") or {}

    # --- the API ------------------------------------------------------------

    def ping(self):
        """True when the server answers."""
        msg = self._wait(self._request("ping"))
        if not msg.get("ok"):
            raise self._result(msg)
        return bool(msg.get("pong"))

    def stats(self):
        """The server's counters (accepted, completed, failed, in_flight, connections)."""
        msg = self._wait(self._request("stats"))
        if not msg.get("ok"):
            raise self._result(msg)
        return msg.get("server") or {}

    def render_dump(self, dump, threads=None):
        """Renders the bytes of a .ppdmp or .zip; returns (png bytes, stats dict).
        Raises GetileError on an error response."""
        r = self._result(self._wait(self._request("render_dump", dump=bytes(dump), threads=threads)))
        if isinstance(r, GetileError):
            raise r
        return r

    def render_list(self, memory, pc, stall=None, regs=None, display=None, threads=None):
        """Renders a raw display list: memory is [(addr, bytes)], display
        (addr, stride, format) or None. Returns (png bytes, stats dict)."""
        fields = {
            "memory": [{"addr": a, "data": bytes(d)} for a, d in memory],
            "pc": pc,
            "stall": stall,
            "regs": regs,
            "threads": threads,
        }
        if display is not None:
            fields["display"] = {"addr": display[0], "stride": display[1], "format": display[2]}
        r = self._result(self._wait(self._request("render_list", **fields)))
        if isinstance(r, GetileError):
            raise r
        return r

    def submit_many(self, items, window=8, threads=None):
        """Pipelines render_dump requests, at most window in flight. items is
        an iterable of (key, dump bytes). Yields (key, (png, stats)) or
        (key, GetileError) as responses arrive (in any order). A broken
        connection raises GetileError("connection") for the whole call."""
        pending = {}
        it = iter(items)
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                try:
                    key, dump = next(it)
                except StopIteration:
                    exhausted = True
                    break
                pending[self._request("render_dump", dump=bytes(dump), threads=threads)] = key
            if not pending:
                return
            ready = next((rid for rid in self._early if rid in pending), None)
            msg = self._early.pop(ready) if ready is not None else self._read_one()
            if msg["id"] not in pending:
                if msg["id"] == 0 and not msg.get("ok"):
                    raise self._result(msg)
                self._early[msg["id"]] = msg
                continue
            yield pending.pop(msg["id"]), self._result(msg)
