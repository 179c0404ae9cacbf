"""Turn a console invocation into the CLI; Ctrl-C, even while Python is still importing, ends with a message."""
from __future__ import annotations

import sys


def run() -> None:
    try:
        from .cli import main

        main()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)
