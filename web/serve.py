"""A static server for web/dist/ on 127.0.0.1 (a free port, in a thread),
with the MIME types a module worker and WebAssembly need, and the Chromium
that web/test.py and web/bench.py drive (Debian's, or $CHROMIUM)."""

import functools
import http.server
import os
import threading

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def serve(dist, mounts=None):
    """Starts serving `dist` (and each directory of `mounts`, a dict from a
    path prefix such as "/iss/" to a directory, beside it); returns the
    server and the page's address."""
    mounts = mounts or {}

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".js": "text/javascript", ".wasm": "application/wasm"}

        def translate_path(self, path):
            for prefix, directory in mounts.items():
                if path.startswith(prefix):
                    rest = path[len(prefix):].split("?", 1)[0]
                    return os.path.join(directory, *rest.split("/"))
            return super().translate_path(path)

        def log_message(self, *args):
            pass

    handler = functools.partial(Handler, directory=dist)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/index.html"


def launch(playwright):
    """Chromium, headless."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
