"""The lines a watcher echoes, kept so that a test can wait for one: woken by each line, never polling."""
import threading


class Lines(list):
    """A list of the echoed lines (pass its append as the echo) that can be waited on."""

    def __init__(self):
        super().__init__()
        self.grew = threading.Condition()

    def append(self, line: str) -> None:
        with self.grew:
            super().append(line)
            self.grew.notify_all()

    def wait(self, predicate, timeout: float = 120) -> bool:  # the timeout guards against a hang, not a pace
        """Whether predicate(lines) holds, now or once a line comes, within the timeout."""
        with self.grew:
            return self.grew.wait_for(lambda: predicate(self), timeout)

    def wait_for(self, text: str, start: int = 0, timeout: float = 120) -> bool:
        """Whether a line from index start on contains text, within the timeout."""
        return self.wait(lambda lines: any(text in line for line in lines[start:]), timeout)
