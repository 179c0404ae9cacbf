"""Turn bytes into a file that readers see whole or not at all (temp file in the same folder, then rename)."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import PnpError


def write_atomically(path: Path, data: bytes, what: str = "file", durable: bool = True) -> None:
    """Replace path with data once all of it is on disk; a failure leaves the old file and no temp file.

    durable=False skips the fsync, for caches whose readers treat a damaged entry as a miss.
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise unwritable(path, what, err) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.chmod(temp, 0o666 & ~current_umask())  # mkstemp creates the file private
        os.replace(temp, path)
    except OSError as err:
        Path(temp).unlink(missing_ok=True)
        raise unwritable(path, what, err) from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def unwritable(path: Path, what: str, err: OSError) -> PnpError:
    return PnpError(f"{path.parent}: cannot write the {what} here ({err.strerror or err}); expected a writable folder")


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
