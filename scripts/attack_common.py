"""What the attack scripts that speak as several clients share: the
target read as a loopback address, and one request on its own connection
from a chosen source address (each loopback address is another client to
the server's per-client limits)."""

import http.client
import json
import time


def loopback(target):
    """(host, port) of a "host:port" target on IPv4 loopback."""
    host, port = target.rsplit(":", 1)
    assert host in ("127.0.0.1", "localhost"), "loopback (IPv4) only"
    return host, int(port)


def request(target, method, path, body=None, *, source=None, headers=None, timeout=60):
    """(status, parsed body or text, seconds) of one request: status None
    and the error's text when the connection failed."""
    host, port = target
    bind = {"source_address": (source, 0)} if source else {}
    connection = http.client.HTTPConnection(host, port, timeout=timeout, **bind)
    sent = {"Connection": "close", **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    started = time.monotonic()
    try:
        connection.request(method, path, body=data, headers=sent)
        answer = connection.getresponse()
        text = answer.read().decode(errors="replace")
        status = answer.status
    except (OSError, http.client.HTTPException) as error:
        return None, str(error), time.monotonic() - started
    finally:
        connection.close()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = text
    return status, parsed, time.monotonic() - started
