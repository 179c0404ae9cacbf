"""Hostile use of watch and serve: an output folder inside the watched folders, a build that fails in a way no
check knows, a page opening sockets it never uses, a download aborted half-way, and project text that would
drive the terminal. watch keeps watching and the last good PDFs; serve stays up and logs one line."""
from __future__ import annotations

import os
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from attack import CARDS, make_project
from echoed import Lines
from pnpgen import Options
from pnpgen.live import serve as serve_module
from pnpgen.live import watch as watch_module

REPO = Path(__file__).resolve().parents[2]


def watching(project: Path, options: Options, lines: list):
    stop = threading.Event()
    worker = threading.Thread(target=watch_module.watch, args=(project, options, lines.append),
                              kwargs={"interval": 0.1, "stop": stop}, daemon=True)
    worker.start()
    return stop, worker


def test_watch_ignores_an_output_folder_inside_the_templates(tmp_path: Path, monkeypatch):
    project = make_project(tmp_path)
    real, looks, looked_ten_times = watch_module.look, [], threading.Event()

    def counted_look(*args):
        looks.append(1)
        if len(looks) == 11:  # the look before the build, then ten after it
            looked_ten_times.set()
        return real(*args)

    monkeypatch.setattr(watch_module, "look", counted_look)
    lines = Lines()
    stop, worker = watching(project, Options(out_dir=project / "templates" / "out"), lines)
    try:
        assert lines.wait_for("built in"), lines
        assert looked_ten_times.wait(120)  # ten looks at the folder: the build's own PDFs must not count as an edit
        assert [line for line in lines if line.startswith(("changed", "built"))] == [lines[-1]], lines
        assert (project / "templates" / "out" / "g" / "deck.pdf").is_file()
    finally:
        stop.set()
        worker.join(timeout=10)


def test_watch_keeps_watching_and_the_last_good_pdfs_after_an_unexpected_failure(tmp_path: Path, monkeypatch):
    project, out = make_project(tmp_path, '{{ text(card.name, 2, 2, 50, 20) }}'), tmp_path / "out"
    real = watch_module.build_project
    calls = []

    def failing_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise ValueError("a kind of bad input no check knows yet")
        return real(*args, **kwargs)

    monkeypatch.setattr(watch_module, "build_project", failing_once)
    lines = Lines()
    stop, worker = watching(project, Options(out_dir=out), lines)
    try:
        assert lines.wait_for("built in"), lines
        good = (out / "g" / "deck.pdf").read_bytes()
        (project / "cards.yaml").write_text(CARDS.replace("剣", "盾"), encoding="utf-8")
        assert lines.wait(lambda echoed: any(line.startswith("build failed (ValueError") for line in echoed)), lines
        assert (out / "g" / "deck.pdf").read_bytes() == good
        (project / "cards.yaml").write_text(CARDS.replace("剣", "弓"), encoding="utf-8")
        assert lines.wait(lambda echoed: sum("built in" in line for line in echoed) == 2), lines
        assert worker.is_alive()
    finally:
        stop.set()
        worker.join(timeout=10)


def test_watch_shows_control_characters_escaped(tmp_path: Path):
    cards = CARDS.replace("{name: 剣}", '{name: "\\e[2J\\rwrote 99 PDFs\\nfake"}')
    project = make_project(tmp_path, cards=cards)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    # Ctrl-C as at a terminal: a suite started in the background (`pytest &`) ignores SIGINT, and so would watch
    process = subprocess.Popen([sys.executable, "-m", "pnpgen", "watch", str(project), "-o", str(tmp_path / "out")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        edited = cards.replace("\\e[2J", "\\e]0;t\\a")  # ESC [2J clears the screen, ESC ]0; sets the title
        deadline = time.monotonic() + 120  # a guard against a hang, not a pace
        output = b""
        while time.monotonic() < deadline and output.count(b"built in") < 2:
            if select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))[0]:
                output += os.read(process.stdout.fileno(), 1 << 16)
            if b"built in" in output and edited:
                (project / "cards.yaml").write_text(edited, encoding="utf-8")
                edited = ""
    finally:
        process.send_signal(signal.SIGINT)
        try:
            _, errors = process.communicate(timeout=300)  # a hang guard only
        except subprocess.TimeoutExpired:
            process.kill()
            _, errors = process.communicate()
            pytest.fail(f"watch did not stop on Ctrl-C; it printed:\n{output.decode()}\n{errors.decode()}")
    text = output.decode("utf-8")
    assert "\x1b" not in text and "\r" not in text and "\a" not in text, text
    assert "g/deck card 1 changed: name: \\x1b[2J\\rwrote 99 PDFs fake → \\x1b]0;t\\x07\\rwrote 99 PDFs fa…" in text


@pytest.fixture
def server(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setattr(serve_module.Handler, "timeout", 1.0)
    urls, ready, stop = [], threading.Event(), threading.Event()

    def announce(url: str) -> None:
        urls.append(url)
        ready.set()

    worker = threading.Thread(target=serve_module.serve, args=(make_project(tmp_path),),
                              kwargs={"ready": announce, "stop": stop, "interval": 0.1}, daemon=True)
    worker.start()
    assert ready.wait(120)
    parts = urlsplit(urls[0])
    yield parts.hostname, parts.port
    stop.set()
    worker.join(timeout=10)


def get(address, path: str = "/api/state") -> bytes:
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


def test_serve_caps_connections_and_closes_idle_ones(server):
    idle = [socket.create_connection(server, timeout=10) for _ in range(serve_module.MAX_CONNECTIONS)]
    try:  # the server accepts in the order the connections were made: the idle ones hold every slot by now
        extra = socket.create_connection(server, timeout=10)
        assert extra.recv(1) == b"", "a connection past the cap is closed at once"
        extra.close()
        for sock in idle:  # each idle one is closed once the timeout passes
            sock.settimeout(10)
            assert sock.recv(1) == b""
    finally:
        for sock in idle:
            sock.close()
    assert get(server).startswith(b"HTTP/1.0 200")


def test_an_aborted_download_is_one_line_not_a_traceback(server, capsys, monkeypatch):
    real, handled = serve_module.LoopbackServer.process_request_thread, threading.Semaphore(0)

    def counted(self, request, client_address) -> None:
        try:
            real(self, request, client_address)
        finally:
            handled.release()

    monkeypatch.setattr(serve_module.LoopbackServer, "process_request_thread", counted)
    for _ in range(5):
        sock = socket.create_connection(server, timeout=10)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(b"GET /font/regular.ttf HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        sock.recv(100)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # a reset half-way through a 5 MB font
    assert all(handled.acquire(timeout=120) for _ in range(5))  # the server is done with every aborted download
    assert get(server).startswith(b"HTTP/1.0 200")
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err and set(err.splitlines()) <= {"serve: the browser closed the connection early (ConnectionResetError)",
                                             "serve: the browser closed the connection early (BrokenPipeError)"}, err
