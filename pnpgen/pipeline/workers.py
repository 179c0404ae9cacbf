"""Turn a job into work on another core (a forked child) when that is safe, else into work done when awaited."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
import traceback
from dataclasses import astuple
from typing import Callable

from ..errors import Location, PnpError, Problem

CANCEL_WAIT = 60  # seconds a cancelled job gets to clean up after itself before it is terminated


def can_fork() -> bool:
    """fork only where it exists and no other thread could hold a lock across it (serve and watch have threads)."""
    return hasattr(os, "fork") and threading.active_count() == 1


def in_turn(jobs: list[Callable[[], object]]) -> Callable[[], None]:
    """One job that does these one after the other."""
    def run() -> None:
        for job in jobs:
            job()
    return run


class Background:
    """job() running in a forked child; wait() returns what it returned (None or bytes) when it is done
    and raises what it raised. The outcome comes back through a pipe as plain bytes (no pickles)."""

    def __init__(self, job: Callable[[], bytes | None]):
        self.job = job
        self.pid: int | None = None
        if can_fork():
            self.receive, send = os.pipe()
            self.pid = os.fork()
            if self.pid == 0:
                os.close(self.receive)
                run_and_report(job, send)  # never returns
            os.close(send)

    def wait(self) -> bytes | None:
        if self.pid is None:
            return self.job()
        with open(self.receive, "rb", closefd=False) as pipe:  # reap() closes it
            outcome = pipe.read()
        return decode_outcome(outcome, self.reap(0))

    def reap(self, flags: int) -> int | None:
        """The child's exit code once it has ended (its pipe closed); None while it runs (flags=WNOHANG)."""
        pid, status = os.waitpid(self.pid, flags)
        if pid == 0:
            return None
        self.pid = None
        with contextlib.suppress(OSError):
            os.close(self.receive)
        return os.waitstatus_to_exitcode(status)

    def cancel(self) -> None:
        """End the job as Ctrl-C does, so that it cleans up after itself, its outcome unread; only a job that
        hangs is terminated. The child is interrupted here too, for a Ctrl-C may have reached this process alone
        (`kill -INT`, a process manager); a child that ignores it is stopped at the deadline."""
        if self.pid is not None and self.reap(os.WNOHANG) is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGINT)
        deadline = time.monotonic() + CANCEL_WAIT
        while self.pid is not None and self.reap(os.WNOHANG) is None:
            if time.monotonic() > deadline:
                self.stop()
                return
            time.sleep(0.02)

    def stop(self) -> None:
        """End a job whose outcome is no longer wanted and that has nothing to clean up."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            self.reap(0)


def run_and_report(job: Callable[[], bytes | None], send: int) -> None:
    """In the child: run the job, write its outcome, and leave at once (no cleanup of the parent's that the
    child inherited, such as temporary files, may run here)."""
    code = 0
    try:
        signal.signal(signal.SIGINT, interrupt_once)  # a terminal's Ctrl-C and cancel()'s may both arrive
        try:
            result = job()
            outcome = b"N" if result is None else b"D" + bytes(result)
        except PnpError as err:
            outcome = b"P" + encode_problems(err.problems)
        except KeyboardInterrupt:
            outcome = b"I"
        except BaseException:  # reported to the parent, which raises it there
            outcome = b"C" + traceback.format_exc().encode("utf-8", "replace")
        with open(send, "wb") as pipe:
            pipe.write(outcome)
    except BaseException:
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def interrupt_once(signum, frame) -> None:
    """Ctrl-C in a child: the first interrupts the job, the next cannot interrupt its cleanup."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def decode_outcome(outcome: bytes, code: int | None) -> bytes | None:
    kind, payload = outcome[:1], outcome[1:]
    if kind == b"N":
        return None
    if kind == b"D":
        return payload
    if kind == b"P":
        raise PnpError(decode_problems(payload))
    if kind == b"I":
        raise KeyboardInterrupt
    if kind == b"C":
        raise RuntimeError(f"a worker process failed:\n{payload.decode('utf-8', 'replace')}")
    raise RuntimeError(f"a worker process failed: the worker process ended with exit code {code}")


def encode_problems(problems: list[Problem]) -> bytes:
    return json.dumps([[p.location and astuple(p.location), p.message] for p in problems]).encode()


def decode_problems(data: bytes) -> list[Problem]:
    return [Problem(None if where is None else Location(*where), message) for where, message in json.loads(data)]
