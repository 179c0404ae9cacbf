"""Measure what bounding template work costs: every face of the bundled project rendered from its template
with the bounded environment, as a ratio of the same renders with Jinja's plain sandbox, in one process.

Runs are interleaved (bounded, plain, bounded, plain …) so that a change of machine load hits both alike;
the figure is the median of the per-pair ratios. Text fitting (text()) is part of both, as in a real build.
Run: python3 bench/template_bounds.py [--runs N]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jinja2.sandbox import ImmutableSandboxedEnvironment  # noqa: E402

from pnpgen.faces.render import Renderer  # noqa: E402
from pnpgen.pipeline.prepare import open_fontbook
from pnpgen.project.expand import expand_pieces  # noqa: E402
from pnpgen.project.validate import load_project  # noqa: E402


def plain_copy(bounded) -> ImmutableSandboxedEnvironment:
    """The same templates, filters and globals in Jinja's sandbox without pnpgen's bounds."""
    plain = ImmutableSandboxedEnvironment(loader=bounded.loader, autoescape=True, undefined=bounded.undefined,
                                          trim_blocks=True, lstrip_blocks=True, auto_reload=False, cache_size=400)
    plain.filters["zen"] = bounded.filters["zen"]
    plain.globals.update(text=bounded.globals["text"], icon=bounded.globals["icon"])
    return plain


def render_all(renderer: Renderer, faces: list) -> float:
    start = time.perf_counter()
    for game, component, card, side, template in faces:
        renderer.render_content(game, component, card, side, template)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    project = load_project(ROOT)
    renderer = Renderer(project, open_fontbook(project))
    faces = [(game, component, card, side, template)
             for game in project.games for component in game.components for card in component.cards
             for side, template in (("front", component.front), ("back", component.back)) if template]
    bounded, plain = renderer.env, plain_copy(renderer.env)
    render_all(renderer, faces)  # warm-up: templates compiled, fonts measured, in both
    renderer.env = plain
    render_all(renderer, faces)
    ratios, times = [], {"bounded": [], "plain": []}
    for _ in range(runs):
        renderer.env = bounded
        times["bounded"].append(render_all(renderer, faces))
        renderer.env = plain
        times["plain"].append(render_all(renderer, faces))
        ratios.append(times["bounded"][-1] / times["plain"][-1])
    pieces = sum(len(expand_pieces(c)) for g in project.games for c in g.components)
    print(f"bundled project: {len(faces)} faces of {pieces} pieces, {runs} interleaved runs")
    print(f"plain sandbox (reference)   median {statistics.median(times['plain']):.3f} s   1.00")
    print(f"bounded environment         median {statistics.median(times['bounded']):.3f} s   "
          f"{statistics.median(ratios):.2f}× (median of per-pair ratios; min {min(ratios):.2f}, max {max(ratios):.2f})")


if __name__ == "__main__":
    main()
