"""A raw WebSocket client that stops reading (issue 22's slow readers, issue 36's silent
spectators): its receive window shuts within a few frames, as a phone's does once its own
buffers are full."""
import base64
import fcntl
import json
import os
import socket
import struct
import termios

from protocol_client import SUBPROTOCOL

TCP_CLOSE = 7
TCP_CLOSE_WAIT = 8


def masked(text):
    """A client's masked text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def upgrade_request(port):
    """A WebSocket upgrade request to the game's subprotocol on 127.0.0.1:`port`."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n").encode()


def read_upgrade(s, what="the upgrade"):
    """Reads the answer's head from blocking socket `s`: it must be a 101."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, f"the server closed {what}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), (what, head)


def open_silent(port, name, rcvbuf=4096, source="127.0.0.1", then=({"type": "lobby", "id": 2},)):
    """A raw WebSocket that upgrades, says hello, sends `then` (by default: asks for the lobby),
    and from then on reads nothing. Its receive buffer is set before it connects (the window is
    negotiated then)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    s.sendall(upgrade_request(port))
    # The server sends nothing after its 101 until it hears hello: reading the head is safe.
    read_upgrade(s)
    s.sendall(masked(json.dumps({"type": "hello", "id": 1, "name": name}))
              + b"".join(masked(json.dumps(message)) for message in then))
    s.setblocking(False)
    return s


def tcp_state(s):
    return s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]


def unread_bytes(s):
    return struct.unpack("i", fcntl.ioctl(s.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]
