"""Run the command line as `python -m pnpgen`."""
from .entry import run

run()
