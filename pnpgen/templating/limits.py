"""Turn a sandboxed Jinja environment into one whose templates do bounded work: steps, sizes and time.

A shared project's template (or rulebook) must not run for ever or take all memory: every loop iteration and
call is a step, every value a template makes and every text it writes is measured, and a render past a limit
stops with a PnpError. The limits, far above what a designer's template does, are in
docs/how-to/untrusted-projects.md.
"""
from __future__ import annotations

import contextvars
import functools
import itertools
import re
import time

from jinja2 import nodes
from jinja2.runtime import Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

from ..errors import PnpError
from . import result_sizes, run_budget
from .seeded_random import write_lorem

MAX_STEPS = 2_000_000  # loop iterations and calls in one render of a face or a rulebook
MACRO_STEPS = 20  # a macro call or an include costs about as much as twenty loop iterations
MAX_SECONDS = 20.0  # wall-clock time of one render, whatever it spends it on
MAX_LENGTH = 1_000_000  # characters of a string, items of a list a template makes
MAX_OUTPUT = 2_000_000  # characters one render writes
CHUNK = 64  # pieces of output measured at once (each at most MAX_LENGTH)
MAX_INT_BITS = 20_000  # about 6,000 decimal digits
MAX_COUNT = 1_000_000  # a number given to a call (a width, a repeat count) above this is refused
LIPSUM_PARAGRAPHS = 100
ENDLESS = ("calls itself without end (a macro that calls itself, or a template that includes itself); "
           "expected templates that finish")
NO_MEMORY = "needs more memory than there is; expected a template that makes values of ordinary size"
NUMBERS = frozenset({int, float})
# filters whose result is no larger than what they are given (or a number): not measured again
NOT_GROWING = frozenset({"abs", "bool", "capitalize", "count", "d", "default", "e", "escape", "first", "float",
                         "forceescape", "int", "last", "length", "lower", "max", "min", "round", "safe", "string",
                         "striptags", "sum", "title", "trim", "truncate", "unique", "upper", "zen", "list", "sort",
                         "reverse", "attr", "select", "reject", "selectattr", "rejectattr", "map", "dictsort"})
FORMAT_WIDTH = re.compile(r"%[-+ #0]*(\d+)")


class Budget:
    """What one render may still spend."""

    def __init__(self) -> None:
        self.steps = 0
        self.output = 0
        self.deadline = time.monotonic() + MAX_SECONDS

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > MAX_STEPS:
            raise PnpError(f"more than {MAX_STEPS:,} loop iterations and calls; expected a template that does "
                           "bounded work (nested loops over large ranges?)")
        if self.steps & 0x3FF == 0 and time.monotonic() > self.deadline:
            raise PnpError(f"still running after {MAX_SECONDS:g} seconds; expected a template that does bounded work")

    def write_all(self, texts: list[str]) -> None:
        self.output += sum(map(len, texts))
        if self.output > MAX_OUTPUT:
            raise PnpError(f"writes more than {MAX_OUTPUT:,} characters; expected a template of ordinary size")


_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("pnpgen_budget", default=None)


def charge(count: int = 1) -> None:
    budget = _BUDGET.get()
    if budget is not None:
        budget.step(count)


def render(template, context: dict, spender: run_budget.Spender) -> str:
    """template.render(context) within a Budget: steps, time and the size of what it writes are bounded; what it
    spent is charged to spender in the run going on (run_budget)."""
    run = run_budget.current()
    started = run.clock() if run is not None else 0.0
    spent, parts = Budget(), []
    token = _BUDGET.set(spent)  # one Budget for the render and the templates it includes
    try:
        pieces = template.generate(context)
        # Measured a few pieces at a time: a template writes thousands of small pieces, and a Python step per
        # piece would cost more than the rendering; loops are counted where they run, so time stays bounded.
        while chunk := list(itertools.islice(pieces, CHUNK)):
            spent.write_all(chunk)
            parts.extend(chunk)
    finally:
        _BUDGET.reset(token)
    if run is not None:
        run.charge(spender, spent.steps, spent.output, run.clock() - started)
    return "".join(parts)


def check_value(value):
    """A string, list or number a template made, if it is of a size a template should make."""
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_LENGTH:
        raise PnpError(f"makes a value of {len(value):,} characters or items; expected at most {MAX_LENGTH:,}")
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise PnpError(f"makes a number of more than {MAX_INT_BITS * 3 // 10:,} digits; "
                       "expected numbers of ordinary size")
    return value


def check_count(value):
    """A number given to a call, if it is of a size a call should get."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_COUNT:
        raise PnpError(f"a call is given {shown_number(value)}; expected numbers up to {MAX_COUNT:,} "
                       "(a width or a repeat count that large would take all memory)")
    return value


def shown_number(value: int) -> str:
    return f"{value:,}" if value.bit_length() < 64 else f"a number of {value.bit_length() * 3 // 10:,} digits"


def size_of(value) -> int:
    if isinstance(value, (str, list, tuple)):
        return len(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value)
    return 1


def check_binop(operator: str, left, right) -> None:
    """Refuse before computing what would be too large: huge powers, long repetitions, giant format widths."""
    if operator == "**" and isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right > 0:
        if left.bit_length() * right > MAX_INT_BITS:
            raise PnpError(f"{shown_number(left)} ** {shown_number(right)} is a number of more than "
                           f"{MAX_INT_BITS * 3 // 10:,} digits; expected numbers of ordinary size")
    if operator == "*":
        if isinstance(left, int) and isinstance(right, int):
            if left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise PnpError(f"a product of more than {MAX_INT_BITS * 3 // 10:,} digits; "
                               "expected numbers of ordinary size")
        elif isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple)):
            if size_of(left) * size_of(right) > MAX_LENGTH:
                raise PnpError(f"repeats a value to more than {MAX_LENGTH:,} characters or items; "
                               "expected values of ordinary size")
    if operator == "%" and isinstance(left, str):
        for value in right if isinstance(right, tuple) else (right,):
            check_count(value)
        if any(len(width) > 6 for width in FORMAT_WIDTH.findall(left)):
            raise PnpError("a format with a width of millions of characters; expected values of ordinary size")


class BoundedEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox, plus: every loop and call is a step, every value made and every binary operation is sized."""

    intercepted_binops = frozenset({"**", "*", "%", "+"})

    def __init__(self, **options):
        super().__init__(**options)
        self.filters["pnpgen_steps"] = count_steps
        self.filters["pnpgen_sized"] = check_value
        self.filters["pnpgen_count"] = check_count
        self.globals["lipsum"] = bounded_lipsum(write_lorem)  # repeatable, as random picks are
        for name, estimate in result_sizes.FILTERS.items():
            self.filters[name] = bounded_filter(self.filters[name], estimate)

    def _parse(self, source, name, filename):
        return Bounds().visit(super()._parse(source, name, filename))

    def get_template(self, name, parent=None, globals=None):  # noqa: A002 - Jinja's own signature
        charge(MACRO_STEPS)  # an {% include %} or {% import %} while rendering: as costly as a macro call
        return super().get_template(name, parent, globals)

    def call_binop(self, context, operator, left, right):
        kinds = {type(left), type(right)}
        if kinds <= NUMBERS and (float in kinds or operator in ("+", "%")):  # arithmetic that cannot grow: fast
            return self.binop_table[operator](left, right)
        check_binop(operator, left, right)
        return check_value(super().call_binop(context, operator, left, right))

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        if __obj is not __self.globals.get("range"):  # the sandbox's range has its own limit and message
            for value in (*args, *kwargs.values()):
                check_count(value)
        bound = getattr(__obj, "__wrapped__", __obj)  # the sandbox wraps str.format in a function of its own
        owner, method = getattr(bound, "__self__", None), getattr(bound, "__name__", "")
        if isinstance(owner, str) and method in result_sizes.METHODS:
            if method == "join" and args and not isinstance(args[0], (str, list, tuple)):
                args = (list(count_steps(args[0])), *args[1:])  # measured and then joined: read once
            refuse_growth(result_sizes.size_of_call(result_sizes.METHODS[method], owner, args, kwargs))
        charge(MACRO_STEPS if isinstance(__obj, Macro) else 1)
        return check_value(super().call(__context, __obj, *args, **kwargs))


class Bounds(NodeTransformer):
    """Every loop counts its iterations; filters and ~ joins have their results sized."""

    def visit_For(self, node: nodes.For):
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, "pnpgen_steps", [], [], None, None, lineno=node.lineno)
        return node

    def visit_Filter(self, node: nodes.Filter):
        self.generic_visit(node)
        if node.node is None or node.name.startswith("pnpgen_"):
            return node  # a {% filter %} block, or one of ours
        # the arguments are checked before the filter runs: 'x'|center(10**9) would take a gigabyte first
        node.args = [counted(arg) for arg in node.args]
        for keyword in node.kwargs:
            keyword.value = counted(keyword.value)
        if node.name in NOT_GROWING:
            return node
        return nodes.Filter(node, "pnpgen_sized", [], [], None, None, lineno=node.lineno)

    def visit_Concat(self, node: nodes.Concat):
        self.generic_visit(node)
        return nodes.Filter(node, "pnpgen_sized", [], [], None, None, lineno=node.lineno)


def refuse_growth(size: int) -> None:
    if size > MAX_LENGTH:
        raise PnpError(f"would make a text of more than {MAX_LENGTH:,} characters (a huge width, separator or "
                       "replacement); expected values of ordinary size")


def bounded_filter(function, estimate):
    """The filter, refusing before it runs when what it would make is too large."""
    skip = 1 if getattr(function, "jinja_pass_arg", None) else 0  # the context Jinja passes first

    @functools.wraps(function)
    def run(*args, **kwargs):
        args = list(args)
        if not isinstance(args[skip], (str, list, tuple, dict)) and hasattr(args[skip], "__iter__"):
            args[skip] = list(count_steps(args[skip]))  # measured and then filtered: read once
        refuse_growth(result_sizes.size_of_call(estimate, args[skip], tuple(args[skip + 1:]), kwargs))
        return function(*args, **kwargs)
    return run


def counted(node: nodes.Expr) -> nodes.Expr:
    """The argument checked as the filter is called; a constant one is checked now, once."""
    if isinstance(node, nodes.Const):
        check_count(node.value)
        return node
    return nodes.Filter(node, "pnpgen_count", [], [], None, None, lineno=node.lineno)


def count_steps(iterable):
    """The loop's items, one step each."""
    spent = _BUDGET.get()
    if spent is None:
        yield from iterable
        return
    for item in iterable:
        spent.step()
        yield item


def bounded_lipsum(lipsum):
    def limited(n: int = 5, html: bool = True, min: int = 20, max: int = 100):  # noqa: A002 - Jinja's names
        if not (0 <= int(n) <= LIPSUM_PARAGRAPHS and 0 <= int(min) <= int(max) <= 1000):
            raise PnpError(f"lipsum({n}, min={min}, max={max}): expected at most {LIPSUM_PARAGRAPHS} paragraphs "
                           "of at most 1000 words")
        return lipsum(n, html, min, max)
    return limited
