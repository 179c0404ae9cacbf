"""Turn a project folder into a live gallery on a loopback web page, rebuilt and refreshed on every save."""
from __future__ import annotations

import ipaddress
import re
import socket
import socketserver
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from ..diff.html import POLICY  # changes.html is served as the file `pnpgen diff` writes: no script, images inline
from ..pipeline.build import Options
from ..errors import PnpError
from ..faces.fonts import BUNDLED_FONTS
from .gallery import Gallery
from .state import Live
from .page import CONTENT_SECURITY_POLICY, PAGE
from .notices import Saves, folders_of
from .watch import build_first, changed_files, look, wait_for_change

FACE_PATH = re.compile(r"/face/([0-9a-f]{64})\.png")
MAX_CONNECTIONS = 32  # a browser opens about 6 per page; the live-event stream holds one
IDLE_SECONDS = 30
FONTS = {"/font/regular.ttf": "NotoSansJP-Regular.ttf", "/font/bold.ttf": "NotoSansJP-Bold.ttf"}


def serve(path: str | Path = ".", *, host: str = "127.0.0.1", port: int = 0, options: Options = Options(),
          ready: Callable[[str], None] | None = None, stop: threading.Event | None = None,
          interval: float = 0.3, since: str | None = None) -> None:
    """Serve the gallery of the project at path on http://host:port/ until stop is set (or Ctrl-C).

    The page is rebuilt whenever a file the build reads changes; host must be a loopback address,
    port 0 picks a free port, and ready(url) is called once the server listens. With since (a git
    revision or last-build) the page marks the cards changed since then and links /changes.html.
    """
    path = Path(path)
    root = path if path.is_dir() else path.parent
    live = Live()
    server = make_server(host, port, live)
    stop = stop or threading.Event()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, name="pnpgen-serve", daemon=True)
    thread.start()
    try:
        if ready:
            ready(server.url)
        watch_project(path, root, Gallery(options, since), live, stop, interval)
    finally:
        live.close()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def watch_project(path: Path, root: Path, gallery: Gallery, live: "Live", stop: threading.Event, interval: float) -> None:
    """Rebuild the gallery now and after every change (waiting until the files stay still)."""
    project, state = build_first(root, None, lambda loaded: gallery.rebuild(path, live, [], loaded))
    while (current := wait_for_change(state, lambda: look(root, project),
                                      Saves(folders_of(root, state), stop, interval))) is not None:
        files, state = changed_files(state, current), current
        project = gallery.rebuild(path, live, files) or project


def loopback(host: str) -> tuple[int, str]:
    """The address family and address to bind for host, refusing anything but loopback."""
    if host.lower() == "localhost":
        return socket.AF_INET, "127.0.0.1"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        address = None
    if address is None or not address.is_loopback:
        raise PnpError(f"--host {host}: the preview serves your project's files to anyone who can reach it; "
                       "expected a loopback address (127.0.0.1, ::1 or localhost)")
    return (socket.AF_INET6 if address.version == 6 else socket.AF_INET), str(address)


class LoopbackServer(ThreadingHTTPServer):
    """At most MAX_CONNECTIONS at once (more are closed at once): a page cannot open sockets until memory runs out."""

    daemon_threads = True

    def __init__(self, family: int, address: str, port: int, live: Live):
        self.address_family = family
        self.live = live
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__((address, port), Handler)

    def process_request(self, request, client_address) -> None:
        if not self.slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()

    def handle_error(self, request, client_address) -> None:
        """One line, never a traceback: a browser that closes a download early is no error of the project."""
        kind, error = sys.exc_info()[:2]
        if kind is not None and issubclass(kind, (ConnectionError, TimeoutError)):
            sys.stderr.write(f"serve: the browser closed the connection early ({kind.__name__})\n")
        else:
            sys.stderr.write(f"serve: a request failed ({kind.__name__ if kind else 'unknown'}: {error})\n")

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # HTTPServer's would look the name up in DNS
        self.server_name, self.server_port = self.server_address[0], self.server_address[1]

    @property
    def url(self) -> str:
        host = f"[{self.server_name}]" if ":" in self.server_name else self.server_name
        return f"http://{host}:{self.server_port}/"


def make_server(host: str, port: int, live: Live) -> LoopbackServer:
    family, address = loopback(host)
    try:
        return LoopbackServer(family, address, port, live)
    except OSError as err:
        raise PnpError(f"cannot listen on {address}:{port}: {err.strerror or err}; expected a free port (0 picks one)") from None


class Handler(BaseHTTPRequestHandler):
    server: LoopbackServer
    server_version = "pnpgen"
    sys_version = ""
    timeout = IDLE_SECONDS  # a connection that sends nothing (or stops reading) is closed

    def log_message(self, format, *args) -> None:  # the terminal belongs to the rebuild messages
        pass

    def do_GET(self) -> None:
        if not self.host_is_loopback():  # a page elsewhere resolving its own name to 127.0.0.1 reads nothing
            return self.send(403, b"forbidden\n", "text/plain; charset=utf-8")
        path = urlsplit(self.path).path
        live = self.server.live
        if path == "/":
            return self.send(200, PAGE, "text/html; charset=utf-8", {"Content-Security-Policy": CONTENT_SECURITY_POLICY})
        if path == "/api/state":
            return self.send(200, live.body, "application/json; charset=utf-8")
        if path == "/changes.html" and live.changes_page:
            return self.send(200, live.changes_page, "text/html; charset=utf-8", {"Content-Security-Policy": POLICY})
        if path == "/events":
            return self.stream_events(live)
        match = FACE_PATH.fullmatch(path)
        if match and match.group(1) in live.thumbs:
            return self.send(200, live.thumbs[match.group(1)], "image/png", {"Cache-Control": "max-age=86400, immutable"})
        if path in FONTS and (BUNDLED_FONTS / FONTS[path]).is_file():
            data = (BUNDLED_FONTS / FONTS[path]).read_bytes()
            return self.send(200, data, "font/ttf", {"Cache-Control": "max-age=86400"})
        self.send(404, b"not found\n", "text/plain; charset=utf-8")

    def refuse(self) -> None:
        self.send(405, b"only GET\n", "text/plain; charset=utf-8", {"Allow": "GET"})

    do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = refuse

    def host_is_loopback(self) -> bool:
        try:
            loopback(urlsplit("//" + (self.headers.get("Host") or "")).hostname or "")
        except (PnpError, ValueError):
            return False
        return True

    def send(self, status: int, body: bytes, content_type: str, headers: dict | None = None) -> None:
        self.start(status, content_type, {"Content-Length": str(len(body)), **(headers or {})})
        if self.command != "HEAD":
            self.wfile.write(body)

    def start(self, status: int, content_type: str, headers: dict) -> None:
        self.send_response(status)
        for name, value in {"Content-Type": content_type, "X-Content-Type-Options": "nosniff",
                            "Cache-Control": "no-store", **headers}.items():
            self.send_header(name, value)
        self.end_headers()

    def stream_events(self, live: Live) -> None:
        """Server-Sent Events: the state's version now and after every rebuild, a comment every 15 s."""
        self.start(200, "text/event-stream; charset=utf-8", {})
        sent = None
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while True:
                with live.changed:
                    live.changed.wait_for(lambda: live.closing or live.state["version"] != sent, timeout=15)
                    if live.closing:
                        return
                    version = live.state["version"]
                message = b": still here\n\n" if version == sent else f"data: {version}\n\n".encode()
                self.wfile.write(message)
                self.wfile.flush()
                sent = version
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
