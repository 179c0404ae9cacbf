"""Make tests/pdfprobe.py importable, and give the test run a cache of its own (never the user's)."""
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
os.environ["PNPGEN_CACHE"] = tempfile.mkdtemp(prefix="pnpgen-test-cache-")
