"""Turn a job into work on another core (a forked child) when that is safe, else into work done when awaited."""
from __future__ import annotations

import multiprocessing
import threading
import traceback
from typing import Callable

from .errors import PnpError


def can_fork() -> bool:
    """fork only where it exists and no other thread could hold a lock across it (serve and watch have threads)."""
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def in_turn(jobs: list[Callable[[], object]]) -> Callable[[], None]:
    """One job that does these one after the other."""
    def run() -> None:
        for job in jobs:
            job()
    return run


class Background:
    """job() running in a forked child; wait() returns what it returned (None or bytes) when it is done
    and raises what it raised."""

    def __init__(self, job: Callable[[], bytes | None]):
        self.job = job
        self.process = None
        if can_fork():
            context = multiprocessing.get_context("fork")
            self.receive, send = context.Pipe(duplex=False)
            self.process = context.Process(target=run_and_report, args=(job, send), daemon=True)
            self.process.start()
            send.close()

    def wait(self) -> bytes | None:
        if self.process is None:
            return self.job()
        try:
            outcome = self.receive.recv()
        except EOFError:
            outcome = ("crash", f"the worker process ended with exit code {self.process.exitcode}")
        self.process.join()
        if outcome is None:
            return None
        kind, payload = outcome
        if kind == "done":
            return payload
        if kind == "pnp":
            raise PnpError(payload)
        if kind == "interrupt":
            raise KeyboardInterrupt
        raise RuntimeError(f"a worker process failed:\n{payload}")

    def cancel(self) -> None:
        """Let the job end by itself (it cleans up after itself; Ctrl-C reaches it too), its outcome unread;
        only a job that hangs is terminated."""
        if self.process is not None:
            self.process.join(timeout=60)
            if self.process.is_alive():
                self.process.terminate()
                self.process.join()


    def stop(self) -> None:
        """End a job whose outcome is no longer wanted and that has nothing to clean up."""
        if self.process is not None:
            self.process.terminate()
            self.process.join()


def run_and_report(job: Callable[[], bytes | None], send) -> None:
    try:
        result = job()
        send.send(None if result is None else ("done", bytes(result)))
    except PnpError as err:
        send.send(("pnp", err.problems))
    except KeyboardInterrupt:
        send.send(("interrupt", None))
    except BaseException:  # reported to the parent, which raises it there
        send.send(("crash", traceback.format_exc()))
