"""Every socket of the game's port gets the server's send buffer (`--send-buffer`, SO_SNDBUF) when
it is accepted, before anything is written to it: a connection that never becomes a WebSocket
(a page's files) too, and the 101 of one that does. Set only once a WebSocket was established, a
socket just accepted had the kernel's default (some 4 MiB on this machine) until then."""
import re
import socket
import subprocess

from mp_support import start_server  # noqa: F401  (fixture)

SEND_BUFFER = 32 * 1024


def send_buffer_of(server_port, client_port):
    """`tb` (the send buffer, which Linux keeps at twice SO_SNDBUF) of the server's socket whose
    peer is 127.0.0.1:`client_port`, from `ss -m`; None when there is none."""
    out = subprocess.run(
        ["ss", "-tmnH", "state", "established", f"( sport = :{server_port} and dport = :{client_port} )"],
        capture_output=True, text=True, check=True).stdout
    found = re.findall(r"skmem:\([^)]*?,tb(\d+)", out)
    return int(found[0]) if found else None


def test_a_socket_has_its_send_buffer_from_its_accept(start_server):
    server = start_server("--send-buffer", SEND_BUFFER)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as client:
        # A page's file on a connection kept open: once its answer came, the server has taken
        # the socket (the barrier), and it never becomes a WebSocket.
        client.sendall(b"GET /favicon.svg HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = client.recv(65536)
            assert chunk, "the server closed the connection before answering"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
        tb = send_buffer_of(server.port, client.getsockname()[1])
        assert tb is not None, "the server's socket is not in ss's established list"
        assert tb == 2 * SEND_BUFFER, f"tb{tb}: not the {SEND_BUFFER} B asked for (Linux shows twice)"
