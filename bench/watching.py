"""Turn a one-card save under `pnpgen watch` into the CPU and wall time of the rebuild it sets off, read from outside.

The watching process is started from the command line, its first build awaited on its output, one edit saved; the
time runs until it reports the rebuild (its "built in" line). CPU is the difference of the process's own and its
waited helpers' CPU in /proc/PID/stat (so Linux only) across that span.
"""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from deck import edit
from processes import Run, pnpgen_env

PATIENCE = 900  # seconds a build may take before the bench gives up on the watching process
LOOK_INTERVAL = "0.1"  # the shortest `pnpgen watch --interval`: the wait a save costs before it is seen is least


def process_cpu(pid: int) -> float:
    """User + system seconds of the process and of the children it has waited for (utime stime cutime cstime)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def await_report(lines: queue.Queue, heard: list[str]) -> str:
    """The next line reporting a build ("built in …"); a failed build or an ended process ends the bench."""
    while True:
        try:
            line = lines.get(timeout=PATIENCE)
        except queue.Empty:
            said = "".join(heard[-20:])
            raise SystemExit(f"bench: pnpgen watch reported no build in {PATIENCE} s:\n{said}") from None
        if line is None or line.startswith("build failed"):
            raise SystemExit("bench: pnpgen watch failed:\n" + "".join(heard[-20:]) + (line or ""))
        heard.append(line)
        if line.startswith("built in "):
            return line.strip()


def time_watch_rebuild(tree: Path, project: Path, cache: Path, change: tuple[str, str, str]) -> tuple[Run, str]:
    """(the rebuild after saving change, what the watching process said of it)."""
    if not Path("/proc/self/stat").exists():
        raise SystemExit("bench: timing `pnpgen watch` reads /proc/PID/stat (Linux)")
    env = dict(pnpgen_env(tree, cache), PYTHONIOENCODING="utf-8")
    argv = [sys.executable, "-m", "pnpgen", "watch", str(project), "-o", str(project / "output"),
            "--interval", LOOK_INTERVAL]
    child = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=project,
                             text=True, encoding="utf-8")
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in child.stdout:
            lines.put(line)
        lines.put(None)
    threading.Thread(target=read, daemon=True).start()
    heard: list[str] = []
    try:
        await_report(lines, heard)  # the first build
        before = process_cpu(child.pid)
        start = time.perf_counter()
        edit(project, change)
        said = await_report(lines, heard)
        wall = time.perf_counter() - start
        cpu = process_cpu(child.pid) - before
    finally:
        child.send_signal(signal.SIGINT)  # Ctrl-C: the watch stops as it does for a user
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    return Run(cpu, wall, 0.0), said
