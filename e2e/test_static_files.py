"""Static files: only the client's public files, never outside the web root, with security headers."""
import http.client
import urllib.error
import urllib.request

import pytest

from conftest import ROOT, RunningServer


def get(server, path):
    """A raw GET of `path`, sent exactly as given (no client-side normalisation)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def test_public_files_carry_security_and_cache_headers(server):
    with urllib.request.urlopen(server.http_url, timeout=10) as response:
        assert response.status == 200
        headers = response.headers
        assert headers["Content-Type"].startswith("text/html")
        assert headers["Cache-Control"] == "no-cache"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        policy = headers["Content-Security-Policy"]
        for directive in ("default-src 'self'", "frame-ancestors 'none'", "base-uri 'none'",
                          "object-src 'none'"):
            assert directive in policy
        host = f"127.0.0.1:{server.port}"
        assert f"connect-src 'self' ws://{host} wss://{host}" in policy
    for path in ("js/main.js", "css/app.css", "favicon.svg"):
        with urllib.request.urlopen(server.http_url + path, timeout=10) as response:
            assert response.status == 200
            assert response.headers["Cache-Control"].startswith("max-age=")
            assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", [
    "/README.md", "/tests/net.test.js", "/js/../README.md", "/js/../tests/net.test.js",
    "/%2e%2e/README.md", "/js/%2e%2e/tests/net.test.js", "/js/..%2fREADME.md",
    "/..%2f..%2fetc/passwd", "/../../etc/passwd", "/js/%2e%2e%2f%2e%2e%2fMakefile",
    "/.git/config", "/js/", "/css",
])
def test_everything_else_is_refused(server, path):
    status, headers, body = get(server, path)
    assert status in (400, 403, 404), path
    assert b"Matchismo" not in body and b"root:" not in body
    if status == 404:
        assert headers.get("x-content-type-options") == "nosniff"
        assert "frame-ancestors 'none'" in headers.get("content-security-policy", "")


def test_urllib_gets_404_for_the_readme(server):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(server.http_url + "README.md", timeout=10)
    assert refused.value.code == 404


def test_symlinks_out_of_the_web_root_are_not_followed(tmp_path):
    root = tmp_path / "web"
    (root / "js").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>t</title>")
    (root / "js" / "app.js").write_text("export const ok = 1;\n")
    secret = tmp_path / "secret.js"
    secret.write_text("secret\n")
    (root / "js" / "escape.js").symlink_to(secret)
    (root / "js" / "up").symlink_to(tmp_path)
    (root / "js" / "inside.js").symlink_to(root / "js" / "app.js")
    server = RunningServer(web_root=root)
    try:
        assert get(server, "/js/app.js")[0] == 200
        assert get(server, "/js/inside.js")[0] == 200
        for path in ("/js/escape.js", "/js/up/secret.js"):
            status, _, body = get(server, path)
            assert status == 404, path
            assert b"secret" not in body
    finally:
        server.stop()
