"""Turn an expectation's expressions into values, and values into the keys distributions count by."""
from __future__ import annotations

from ..errors import PnpError
from ..project.model import Expectation
from ..templating.sandbox import compile_expression


def evaluate(expression: str, expectation: Expectation, **names):
    try:
        return compile_expression(expression)(**names)
    except Exception as err:  # a designer's expression failing on some card is a located input error
        raise PnpError(f"expression '{expression}' failed: {err}; expected it to work for every card", expectation.location) from None


def key_of(value) -> str:
    return str(value)
