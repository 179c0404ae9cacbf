"""Turn a data expression into what it reads (card fields, the numbers written in it) and into the same expression
with its rounding taken out, compiled in the same sandbox: the exact value its rounding is held against."""
from __future__ import annotations

import functools

from jinja2 import nodes
from jinja2.visitor import NodeTransformer

from ..templating.sandbox import compile_tree, parse_expression

ROUNDING_FILTERS = frozenset({"round", "int"})  # x|round(0, 'floor'), x|int: the value before them is the exact one


@functools.lru_cache(maxsize=256)
def read_fields(source: str, required: bool = False) -> tuple[str, ...]:
    """The card fields the expression reads (card.number, card['number'], card.get('number')), in order; with
    `required`, only those it cannot do without (not card.get('x'), which has a default)."""
    names = []
    for node in find_all(parse_expression(source), (nodes.Getattr, nodes.Getitem, nodes.Call)):
        name = field_of(node)
        if name is not None and name not in names and not (required and isinstance(node, nodes.Call)):
            names.append(name)
    return tuple(names)


def find_all(tree: nodes.Node, kinds) -> list:
    """The nodes of these kinds in the tree, the tree itself included (Jinja's find_all looks only below it)."""
    return ([tree] if isinstance(tree, kinds) else []) + list(tree.find_all(kinds))


def field_of(node: nodes.Node) -> str | None:
    if isinstance(node, nodes.Getattr) and is_card(node.node) and node.attr != "get":
        return node.attr
    if isinstance(node, nodes.Getitem) and is_card(node.node) and isinstance(node.arg, nodes.Const):
        return str(node.arg.value)
    if (isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr) and node.node.attr == "get"
            and is_card(node.node.node) and node.args and isinstance(node.args[0], nodes.Const)):
        return str(node.args[0].value)
    return None


def is_card(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Name) and node.name == "card"


@functools.lru_cache(maxsize=256)
def read_compared_numbers(source: str) -> tuple[tuple[int | float, ...], ...]:
    """The numbers a card field is compared with (12 in card.number == 12, 7 in 1 <= card.number <= 7, each of
    card.number in [10, 11]), each with the figures it may stand for: card.number < 8 bounds at 7 or 8."""
    found = []
    for compare in find_all(parse_expression(source), nodes.Compare):
        sides = [compare.expr, *(operand.expr for operand in compare.ops)]
        for left, operand, right in zip(sides, compare.ops, sides[1:]):
            op = operand.op
            if field_of(right) is not None and field_of(left) is None:  # 12 == card.number: as card.number == 12
                left, right, op = right, left, MIRRORED.get(op, op)
            if field_of(left) is None:
                continue
            items = right.items if op in ("in", "notin") and isinstance(right, (nodes.List, nodes.Tuple)) else [right]
            for item in items:
                if is_number(item):
                    found.append((item.value, item.value + STEP[op]) if op in STEP else (item.value,))
    return tuple(dict.fromkeys(found))


MIRRORED = {"lt": "gt", "gt": "lt", "lteq": "gteq", "gteq": "lteq"}
STEP = {"lt": -1, "gt": 1}  # card.number < 8 is card.number <= 7


def is_number(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Const) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


class DropRounding(NodeTransformer):
    """a // b as a / b; x|round(…) and x|int as x."""

    def visit_FloorDiv(self, node: nodes.FloorDiv):
        self.generic_visit(node)
        return nodes.Div(node.left, node.right, lineno=node.lineno)

    def visit_Filter(self, node: nodes.Filter):
        self.generic_visit(node)
        if node.name in ROUNDING_FILTERS and node.node is not None:
            return node.node
        return node


@functools.lru_cache(maxsize=256)
def compile_unrounded(source: str):
    """The expression with its rounding taken out, compiled: what it gives before it rounds."""
    return compile_tree(DropRounding().visit(parse_expression(source)))

