"""Turn the gallery's rebuilds into the state the page shows: a versioned JSON body and thumbnails, shared with request threads."""
from __future__ import annotations

import json
import threading


class Live:
    """The state the page shows, its version, and the thumbnails it names; shared with request threads."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.closing = False
        self.thumbs: dict[str, bytes] = {}
        self.changes_page = b""  # the "changed since REF" comparison, when serve was given --since
        self.state = {"version": 0, "project": "", "building": True, "games": [], "findings": [], "error": None,
                      "changes": [], "since": None}
        self.body = encode(self.state)

    def publish(self, **updates) -> None:
        with self.changed:
            self.state = {**self.state, **updates, "version": self.state["version"] + 1, "building": False}
            self.body = encode(self.state)
            self.changed.notify_all()

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()


def encode(state: dict) -> bytes:
    return json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
