"""Turn the page's files (assets/page.html, .css, .js) into one HTML document with its style and script inline.

Everything the page shows comes from /api/state and is inserted with textContent, never as markup;
the Content-Security-Policy allows only this script and style (by hash), so even a slip could not run
data as code. Nothing is loaded from the network: thumbnails, state and the fallback font come from
the loopback server itself.
"""
from __future__ import annotations

import base64
import hashlib
from importlib.resources import files


def read_asset(name: str) -> str:
    return files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def source_hash(text: str) -> str:
    """The CSP source expression that allows exactly this inline script or style."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


STYLE, SCRIPT = read_asset("page.css"), read_asset("page.js")
PAGE = read_asset("page.html").format(style=STYLE, script=SCRIPT).encode("utf-8")
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src {source_hash(SCRIPT)}; style-src {source_hash(STYLE)}; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
