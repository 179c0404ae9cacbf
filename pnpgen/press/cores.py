"""Turn the cores this process may run on into how many processes to spread work over."""
from __future__ import annotations

import os


def usable_cores() -> int:
    """Every core this process may use (its CPU affinity where the system has one, else every core there is)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
