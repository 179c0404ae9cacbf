"""Run project templates and expressions in a Jinja sandbox whose work is bounded: steps, sizes and time."""
