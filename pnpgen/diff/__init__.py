"""Turn two states of a project (now, and a git revision or the last build) into what changed: a report, pictures, a reprint."""
