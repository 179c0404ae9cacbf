"""Measure where a cold build's resident memory goes, phase by phase, at two deck sizes (main and helper process).

Run: python3 bench/memory.py [--sizes 1000,10000]
Not a test: it prints figures. Each build runs in a fresh child process (imports and fonts warmed up
first by a build of a small project, checks off); the child notes its resident memory (now and peak, from /proc, so Linux
only) after each phase of pipeline.build_project, and the helper process that renders every other card
notes its own before it returns. What grows from the smaller deck to the larger is held per card.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from deck import write_project  # noqa: E402

PHASES = ("loaded", "render_ahead", "plan_components", "convert_faces", "written")


def resident() -> tuple[float, float]:
    """(resident now, peak resident) of this process in MB."""
    found = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                found[name] = int(value.split()[0]) / 1024
    return found["VmRSS"], found["VmHWM"]


def child(project: str, out: str, warmup: str) -> dict:
    """Build once with every phase wrapped to note the memory after it; the helper's figure comes back in a file."""
    import pnpgen
    from pnpgen import Options
    from pnpgen.faces.convert import Converter
    from pnpgen.pipeline import prerender, build as pipeline

    pnpgen.build(warmup, Options(out_dir=Path(out) / "warmup", check=False, cache=False))
    noted: dict[str, tuple[float, float]] = {}
    helper_file = Path(out) / "helper.json"

    def after(name, function):
        def wrapped(*args, **kwargs):
            if "loaded" not in noted:
                noted["loaded"] = resident()
            result = function(*args, **kwargs)
            noted[name] = resident()
            return result
        return wrapped

    for name in PHASES[1:3]:
        setattr(pipeline, name, after(name, getattr(pipeline, name)))
    Converter.convert_faces = after("convert_faces", Converter.convert_faces)
    real_cards = prerender.render_cards

    def render_cards(renderer, cards, start=None, *rest):
        result = real_cards(renderer, cards, start, *rest)
        if start is not None:  # the helper process, about to hand its faces back
            helper_file.write_text(json.dumps(resident()), encoding="ascii")
        return result
    prerender.render_cards = render_cards
    pnpgen.build(project, Options(out_dir=Path(out) / "deck", check=False, cache_dir=Path(out) / "cache"))
    noted["written"] = resident()
    helper = json.loads(helper_file.read_text(encoding="ascii")) if helper_file.exists() else [0.0, 0.0]
    return {"main": noted, "helper": helper}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child(*sys.argv[2:5])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    if not Path("/proc/self/status").exists():
        raise SystemExit("needs /proc/self/status (Linux) to read resident memory phase by phase")
    figures = {}
    with tempfile.TemporaryDirectory(prefix="pnpgen-memory-") as tmp:
        scratch = Path(tmp)
        warmup = write_project(scratch / "warmup", 20, 1, prefix="ウォームアップ")
        for size in sizes:
            project = write_project(scratch / f"deck-{size}", size, 1)
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            done = subprocess.run([sys.executable, __file__, "--child", str(project), str(scratch / f"out-{size}"),
                                   str(warmup)], capture_output=True, text=True, env=env)
            if done.returncode != 0:
                raise SystemExit(f"the {size}-card build failed:\n{done.stderr}")
            figures[size] = json.loads(done.stdout.strip().splitlines()[-1])
    print("resident MB after each phase of a cold build (now / peak so far), N unique poker cards, fresh process")
    print(f"{'phase':>16} " + " ".join(f"{f'{size:,} cards':>17}" for size in sizes) + f" {'grows':>7}")
    for phase in PHASES:
        cells = [figures[size]["main"].get(phase, [0.0, 0.0]) for size in sizes]
        print(f"{phase:>16} " + " ".join(f"{now:8.0f} / {peak:6.0f}" for now, peak in cells)
              + f" {cells[-1][1] - cells[0][1]:+7.0f}")
    loaded = [figures[size]["main"].get("loaded", [0.0, 0.0])[1] for size in sizes]
    written = [figures[size]["main"].get("written", [0.0, 0.0])[1] for size in sizes]
    print(f"{'after loading':>16} " + " ".join(f"{peak - held:17.0f}" for held, peak in zip(loaded, written))
          + f" {(written[-1] - loaded[-1]) - (written[0] - loaded[0]):+7.0f}   (the build's own, beyond the project it read)")
    helpers = [figures[size]["helper"] for size in sizes]
    print(f"{'helper process':>16} " + " ".join(f"{now:8.0f} / {peak:6.0f}" for now, peak in helpers)
          + f" {helpers[-1][1] - helpers[0][1]:+7.0f}")


if __name__ == "__main__":
    main()
