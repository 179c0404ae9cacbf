"""Run the command line as `python -m pnpgen`."""
from .cli import main

main()
