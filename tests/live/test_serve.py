"""pnpgen serve: the gallery's state, thumbnails and HTTP hygiene, and the live page in headless Chromium."""
import base64
import contextlib
import http.client
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PIL import Image

from pnpgen.errors import PnpError
from pnpgen.live.serve import loopback, serve

pytestmark = pytest.mark.long  # several whole builds or installs: the file starts first

FIXTURES = Path(__file__).parents[1] / "fixtures"
CHROMIUM = Path("/usr/bin/chromium")
XSS = "<img src=x onerror=alert(1)>"
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def make_project(tmp_path: Path) -> Path:
    """The minimal deck plus a card whose name is markup, so the page must show it as text."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", project)
    cards = project / "cards.yaml"
    text = cards.read_text(encoding="utf-8").replace("equals: 6", "equals: 7").replace("カード６枚", "カード７枚")
    (project / "documents" / "rules.txt").write_text("デッキ：カード７枚。\n", encoding="utf-8")
    text = text.replace('          - {name: 弓,', f'          - {{name: "{XSS}", number: 4}}\n          - {{name: 弓,')
    cards.write_text(text, encoding="utf-8")
    return project


def edit(path: Path, old: str, new: str) -> None:
    """Save as an editor that writes the new text beside the file and renames it over it: the watcher sees all of
    the save or none of it. (An in-place save that a loaded machine stalls between truncating and writing can be
    seen as an empty file first, and the first rebuild after it would not be the one a test waits for.)"""
    text = path.read_text(encoding="utf-8")
    assert old in text
    saving = path.with_name(f".{path.name}.saving")  # a dotfile: no watched file
    saving.write_text(text.replace(old, new), encoding="utf-8")
    os.replace(saving, path)


@contextlib.contextmanager
def running(project: Path, **kwargs):
    """serve() in a thread; yields its URL once the first gallery is built; always stops it."""
    urls, stop, failure, ready = [], threading.Event(), [], threading.Event()

    def announce(url: str) -> None:
        urls.append(url)
        ready.set()

    def run():
        try:
            serve(project, ready=announce, stop=stop, interval=0.1, **kwargs)
        except BaseException as err:  # noqa: BLE001 - shown by the test
            failure.append(err)
        finally:
            ready.set()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    try:
        ready.wait(120)  # a guard against a hang, not a pace
        assert urls, failure
        wait_for_state(urls[0], lambda s: s["version"] >= 1)
        yield urls[0]
    finally:
        stop.set()
        worker.join(timeout=10)
    assert not worker.is_alive()
    assert not failure, failure


def get(url: str, method: str = "GET", headers: dict | None = None):
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with NO_PROXY.open(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def state_of(url: str) -> dict:
    status, headers, body = get(url + "api/state")
    assert status == 200
    return json.loads(body)


def wait_for_state(url: str, predicate, timeout: float = 120) -> dict:  # a guard against a hang, not a pace
    """The state once predicate holds: looked at now and after each rebuild the live-event stream announces."""
    parts, deadline = urlsplit(url), time.monotonic() + timeout
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request("GET", "/events")
        response = connection.getresponse()  # subscribed before the first look: no rebuild goes unannounced
        while not predicate(state := state_of(url)):
            assert time.monotonic() < deadline, state
            response.readline()  # a line of an announcement, or the stream's keep-alive comment: look again
        return state
    finally:
        connection.close()


def test_state_lists_games_cards_findings_and_faces(tmp_path):
    with running(make_project(tmp_path)) as url:
        assert url.startswith("http://127.0.0.1:")
        status, headers, body = get(url + "api/state")
        assert status == 200
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        assert headers["Cache-Control"] == "no-store"
        state = json.loads(body)
        assert state["error"] is None and state["version"] >= 1 and state["project"] == "minimal"
        [game] = state["games"]
        assert (game["id"], game["title"]) == ("tiny", "小さなゲーム")
        [deck] = game["components"]
        assert (deck["id"], deck["name"], deck["pieces"]) == ("deck", "デッキ", 7)
        assert [c["caption"] for c in deck["cards"]] == ['剣 <&>"', "盾", XSS, "弓"]
        sword, shield = deck["cards"][:2]
        assert sword["fields"] == {"effect": "", "name": '剣 <&>"', "number": 1}
        assert (sword["index"], sword["copies"], sword["location"]) == (1, 3, "cards.yaml:14")
        assert shield["location"] == "cards.yaml:15" and deck["cards"][3]["tbd"] == ["effect"]
        assert len(sword["front"]) == 64 and int(sword["front"], 16) >= 0
        assert sword["front"] != shield["front"] and sword["back"] == shield["back"]  # one back for the deck
        total, stated, placeholders = state["findings"]
        assert (stated["status"], stated["check"]) == ("pass", "total deck: equals as the document states")
        assert (placeholders["status"], placeholders["check"]) == ("warn", "placeholders in deck")
        assert (total["status"], total["check"], total["file"], total["line"]) == ("pass", "total deck", "cards.yaml", 19)
        assert (total["expected"], total["found"]) == (7, 7)


def test_each_card_carries_what_a_print_shop_would_refuse_on_its_faces(tmp_path):
    project = tmp_path / "planted-faults"
    shutil.copytree(FIXTURES / "planted-faults", project)
    with running(project) as url:
        cards = state_of(url)["games"][0]["components"][0]["cards"]
        assert [(f["side"], f["severity"], f["check"]) for f in cards[0]["print"]] == [
            ("front", "error", "bleed"), ("front", "error", "safe zone"), ("front", "error", "text size"),
            ("front", "error", "stroke"), ("front", "error", "image")]
        assert cards[0]["print"][2]["message"] == "text “small print” set at 4.0 pt; expected at least 6 pt to print legibly"
        assert cards[1]["print"][1]["message"].startswith("text “2” 1.0 mm from the cut")  # each card its own face


def test_thumbnails_are_pngs_of_the_trim(tmp_path):
    with running(make_project(tmp_path)) as url:
        card = state_of(url)["games"][0]["components"][0]["cards"][0]
        for key in (card["front"], card["back"]):
            status, headers, body = get(f"{url}face/{key}.png")
            assert status == 200 and headers["Content-Type"] == "image/png"
            image = Image.open(io.BytesIO(body))
            assert image.format == "PNG" and image.size == (229, 320)  # 63 × 88 mm, the longer side 320 px
        front = Image.open(io.BytesIO(get(f"{url}face/{card['front']}.png")[2])).convert("RGB")
        assert front.getpixel((2, 2)) == (0xf4, 0xec, 0xd8)  # the front template's background, to the edge


def test_a_rebuild_rasterises_only_the_faces_that_changed(tmp_path, monkeypatch):
    import pnpgen.live.gallery

    rasterised, real = [], pnpgen.live.gallery.thumbnails
    monkeypatch.setattr(pnpgen.live.gallery, "thumbnails", lambda c, faces, *rest: rasterised.append(len(faces)) or real(c, faces, *rest))
    project = make_project(tmp_path)
    with running(project) as url:
        assert rasterised == [5]  # four fronts and the one back the deck shares
        before = state_of(url)["games"][0]["components"][0]["cards"]
        edit(project / "cards.yaml", "name: 盾", "name: 大盾")
        after = wait_for_state(url, lambda s: s["version"] > 1)["games"][0]["components"][0]["cards"]
        assert rasterised == [5, 1]
        assert [c["front"] == d["front"] for c, d in zip(before, after)] == [True, False, True, True]
        assert get(f"{url}face/{before[1]['front']}.png")[0] == 404  # thumbnails no card shows any more are dropped
        assert get(f"{url}face/{after[1]['front']}.png")[0] == 200


def test_a_save_while_the_first_gallery_is_built_is_seen(tmp_path, monkeypatch):
    import pnpgen.live.serve

    project, real = make_project(tmp_path), pnpgen.live.serve.Gallery.rebuild

    def rebuild_then_save(self, *args):
        built = real(self, *args)
        if not args[2]:  # the first build (no changed files): the designer saves just as it ends
            edit(project / "cards.yaml", "name: 盾", "name: 大盾")
        return built

    monkeypatch.setattr(pnpgen.live.serve.Gallery, "rebuild", rebuild_then_save)
    with running(project) as url:
        state = wait_for_state(url, lambda s: s["version"] > 1)
        assert state["games"][0]["components"][0]["cards"][1]["caption"] == "大盾"


def test_http_hygiene(tmp_path):
    with running(make_project(tmp_path)) as url:
        for path in ("nope", "face/abc.png", "face/" + "0" * 64 + ".png", "face/../cards.yaml", "cards.yaml",
                     "api/state/x", "face/" + "A" * 64 + ".png"):
            assert get(url + path)[0] == 404, path
        for method in ("POST", "PUT", "DELETE", "HEAD"):
            assert get(url + "api/state", method)[0] == 405, method
        assert get(url + "api/state", headers={"Host": "attacker.example"})[0] == 403  # DNS rebinding
        assert get(url + "api/state", headers={"Host": "localhost:1"})[0] == 200
        status, headers, body = get(url)
        assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert "script-src 'sha256-" in headers["Content-Security-Policy"]
        assert b"http://" not in body and b"https://" not in body  # nothing from the network
        status, headers, body = get(url + "font/regular.ttf")  # the page's Japanese fallback font, from here
        assert status == 200 and headers["Content-Type"] == "font/ttf" and len(body) > 1_000_000


def test_refuses_hosts_other_than_loopback(tmp_path):
    for host in ("0.0.0.0", "::", "192.168.1.10", "example.com", ""):
        with pytest.raises(PnpError, match="loopback"):
            serve(tmp_path, host=host, stop=threading.Event())
    assert loopback("localhost")[1] == "127.0.0.1"
    assert loopback("127.0.0.2")[1] == "127.0.0.2"
    assert loopback("::1")[1] == "::1"


def test_build_error_is_shown_over_the_last_good_gallery(tmp_path):
    project = make_project(tmp_path)
    with running(project) as url:
        good = state_of(url)
        edit(project / "cards.yaml", "name: 盾", "name: [盾")
        broken = wait_for_state(url, lambda s: s["error"] is not None)
        assert broken["version"] > good["version"]
        assert any(m.startswith("cards.yaml:15:") for m in broken["error"]), broken["error"]
        assert broken["games"] == good["games"]
        assert broken["changes"] == ["cards.yaml changed"]
        edit(project / "cards.yaml", "name: [盾", "name: 大盾")
        fixed = wait_for_state(url, lambda s: s["error"] is None and s["version"] > broken["version"])
        assert fixed["games"][0]["components"][0]["cards"][1]["caption"] == "大盾"
        edit(project / "templates" / "front.svg.j2", "card.effect", "card.efect")
        failed = wait_for_state(url, lambda s: s["error"] is not None)
        assert any("no field 'efect'" in m for m in failed["error"]), failed["error"]


def test_events_announce_each_rebuild(tmp_path):
    project = make_project(tmp_path)
    with running(project) as url:
        parts = urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=15)
        try:
            connection.request("GET", "/events")
            response = connection.getresponse()
            assert response.headers["Content-Type"].startswith("text/event-stream")
            first = read_event(response)
            edit(project / "cards.yaml", "name: 盾", "name: 大盾")
            assert read_event(response) == first + 1
        finally:
            connection.close()


def read_event(response) -> int:
    while True:
        line = response.readline().decode()
        if line.startswith("data: "):
            return int(line[6:])


# --- the page in a real browser ----------------------------------------------------------------


class DevTools:
    """The Chrome DevTools Protocol over a minimal RFC 6455 client (text frames; no extensions)."""

    def __init__(self, ws_url: str, timeout: float = 10):
        parts = urlsplit(ws_url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.receive_some()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.next_id, self.events = 0, []

    def receive_some(self) -> bytes:
        data = self.sock.recv(1 << 16)
        if not data:
            raise ConnectionError("DevTools closed the connection")
        return data

    def read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += self.receive_some()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send_frame(self, opcode: int, payload: bytes) -> None:
        size = len(payload)
        header = bytes([0x80 | opcode])
        if size < 126:
            header += bytes([0x80 | size])
        elif size < 1 << 16:
            header += bytes([0x80 | 126]) + size.to_bytes(2, "big")
        else:
            header += bytes([0x80 | 127]) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive_message(self) -> dict:
        message = b""
        while True:
            first, second = self.read(2)
            size = second & 0x7F
            if size == 126:
                size = int.from_bytes(self.read(2), "big")
            elif size == 127:
                size = int.from_bytes(self.read(8), "big")
            mask = self.read(4) if second & 0x80 else None
            payload = self.read(size)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = first & 0x0F
            if opcode == 8:
                raise ConnectionError("DevTools closed the websocket")
            if opcode == 9:
                self.send_frame(10, payload)
                continue
            if opcode in (0, 1, 2):
                message += payload
                if first & 0x80:
                    return json.loads(message)

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.send_frame(1, json.dumps({"id": self.next_id, "method": method, "params": params}).encode())
        while True:
            message = self.receive_message()
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self.events.append(message)

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 10):
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            assert time.monotonic() < deadline, f"timed out waiting for {expression}"
            time.sleep(0.1)

    def close(self) -> None:
        self.sock.close()


@contextlib.contextmanager
def chromium(profile: Path):
    """Headless Chromium from Debian's package, with its DevTools page target; always killed."""
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--no-proxy-server",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,900",
             f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"]
    process = subprocess.Popen([str(CHROMIUM), *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    devtools = None
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 20
        while not (active.is_file() and active.read_text().strip()):
            assert process.poll() is None, f"chromium exited with {process.returncode}"
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            time.sleep(0.05)
        port = int(active.read_text().split()[0])
        while True:
            with NO_PROXY.open(f"http://127.0.0.1:{port}/json/list", timeout=5) as response:
                pages = [t for t in json.load(response) if t["type"] == "page"]
            if pages:
                break
            assert time.monotonic() < deadline, "chromium has no page"
            time.sleep(0.05)
        devtools = DevTools(pages[0]["webSocketDebuggerUrl"])
        yield devtools
    finally:
        if devtools:
            devtools.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


TEXT = "document.body.innerText"


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium); .ci/run installs it")
def test_page_shows_gallery_and_follows_edits_live(tmp_path):
    project = make_project(tmp_path)
    started = time.monotonic()
    with running(project) as url, chromium(tmp_path / "profile") as page:
        page.call("Page.enable")
        page.call("Page.navigate", url=url)
        page.wait("document.querySelectorAll('button.card').length === 4 && document.body.dataset.mode === 'sse'")
        text = page.evaluate(TEXT)
        assert "小さなゲーム" in text and "デッキ" in text and "✓ 2" in text and "⚠ 1" in text
        assert "cards.yaml:17 placeholders in deck" in text  # a warning is shown open, with its file:line
        findings = page.evaluate("document.getElementById('findings').textContent")
        assert "cards.yaml:19 total deck: expected 7, found 7" in findings  # passes are folded away
        # every thumbnail decoded, front and back
        page.wait("[...document.images].length === 8 && [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        # markup in the data is shown as text, never parsed
        captions = page.evaluate("[...document.querySelectorAll('.caption')].map(e => e.textContent)")
        assert captions == ['剣 <&>"', "盾", XSS, "弓"]
        assert page.evaluate("document.querySelectorAll('img[src=\"x\"], #gallery img:not([src^=\"/face/\"])').length") == 0
        assert not any(e.get("method") == "Page.javascriptDialogOpening" for e in page.events)

        # clicking a card shows its fields and the file:line it came from
        page.evaluate("document.querySelector('button.card[data-card=\"tiny/deck/2\"]').click()")
        panel = page.wait("!document.getElementById('panel').hidden && document.getElementById('panel').innerText")
        assert "cards.yaml:15" in panel and "盾" in panel and "相手のカードを１枚捨てる。:star:" in panel
        assert "number\t2" in panel or "number\n2" in panel

        # an edit to cards.yaml reaches the open page by itself (server-sent events, no reload)
        page.evaluate("window.marker = 'same page'")
        before = page.evaluate("document.querySelector('button.card[data-card=\"tiny/deck/2\"] img').src")
        edit(project / "cards.yaml", "name: 盾", "name: 大盾")
        page.wait(f"{TEXT}.includes('大盾')", timeout=60)
        assert page.evaluate("window.marker") == "same page"
        page.wait("document.querySelector('button.card[data-card=\"tiny/deck/2\"] img').complete")
        after = page.evaluate("document.querySelector('button.card[data-card=\"tiny/deck/2\"] img').src")
        assert after != before  # a new thumbnail for the changed face
        assert "大盾" in page.evaluate("document.getElementById('panel').innerText")  # the open panel follows

        # a broken edit shows the located error above the last good gallery
        edit(project / "cards.yaml", "name: 大盾", "name: [大盾")
        page.wait(f"{TEXT}.includes('The build failed')", timeout=60)
        assert "cards.yaml:15:" in page.evaluate("document.getElementById('error').innerText")
        assert page.evaluate("document.querySelectorAll('button.card').length") == 4
        edit(project / "cards.yaml", "name: [大盾", "name: 小盾")
        page.wait(f"{TEXT}.includes('小盾') && document.getElementById('error').hidden", timeout=60)
        assert page.evaluate("window.marker") == "same page"
        assert not any(e.get("method") == "Page.javascriptDialogOpening" for e in page.events)
    assert time.monotonic() - started < 300  # a hang guard only


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium); .ci/run installs it")
def test_page_falls_back_to_polling_without_server_sent_events(tmp_path):
    project = make_project(tmp_path)
    with running(project) as url, chromium(tmp_path / "profile") as page:
        page.call("Page.enable")
        page.call("Page.addScriptToEvaluateOnNewDocument", source="delete window.EventSource;")
        page.call("Page.navigate", url=url)
        page.wait("document.querySelectorAll('button.card').length === 4 && document.body.dataset.mode === 'polling'")
        page.evaluate("window.marker = 'same page'")
        edit(project / "cards.yaml", "name: 弓", "name: 長弓")
        page.wait(f"{TEXT}.includes('長弓')", timeout=60)
        assert page.evaluate("window.marker") == "same page"


def dark_pixels(screenshot: Image.Image, box: dict) -> int:
    """How many pixels inside the element's box are ink, not the white header behind it."""
    area = screenshot.crop((int(box["left"]), int(box["top"]), int(box["right"]) + 1, int(box["bottom"]) + 1))
    return sum(area.convert("L").histogram()[:128])


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium); .ci/run installs it")
def test_page_shows_text_at_first_paint_while_the_font_is_still_coming(tmp_path):
    with running(make_project(tmp_path)) as url, chromium(tmp_path / "profile") as page:
        page.call("Page.enable")
        # the font requests are held, never answered: the page must not wait for them to show its text
        page.call("Fetch.enable", patterns=[{"urlPattern": "*/font/*", "requestStage": "Request"}])
        page.call("Page.navigate", url=url)
        page.wait("document.querySelectorAll('button.card').length === 4 && document.body.dataset.mode === 'sse'")
        assert page.evaluate("document.fonts.status") == "loading"
        shot = Image.open(io.BytesIO(base64.b64decode(page.call("Page.captureScreenshot", format="png")["data"])))
        held = [e for e in page.events if e.get("method") == "Fetch.requestPaused"]
        assert held, "the page asked for no font: nothing was held back"
        for element in ("project", "status"):
            rect = f"document.getElementById('{element}').getBoundingClientRect()"
            box = page.evaluate(f"JSON.parse(JSON.stringify({rect}))")
            assert box["width"] > 0 and dark_pixels(shot, box) > 20, (element, box)
        assert page.evaluate("[...document.fonts].map(face => face.display)") == ["swap", "swap"]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium); .ci/run installs it")
def test_page_shows_a_card_s_print_flaws_on_its_tile_and_in_its_panel(tmp_path):
    project = tmp_path / "planted-faults"
    shutil.copytree(FIXTURES / "planted-faults", project)
    with running(project) as url, chromium(tmp_path / "profile") as page:
        page.call("Page.enable")
        page.call("Page.navigate", url=url)
        page.wait("document.querySelectorAll('button.card').length === 4")
        badges = page.evaluate("[...document.querySelectorAll('.badge.print')].map(e => e.textContent)")
        assert badges == ["print: 5"] * 4
        page.evaluate("document.querySelector('button.card[data-card=\"faults/suits/1\"]').click()")
        panel = page.wait("!document.getElementById('panel').hidden && document.getElementById('panel').innerText")
        assert "front · text size: text “small print” set at 4.0 pt; expected at least 6 pt to print legibly" in panel
