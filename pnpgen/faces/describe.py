"""Turn a card into the few fields that tell it from the others of its component, for messages."""
from __future__ import annotations

from ..project.model import Card, Component


def distinguishing_fields(component: Component) -> list[str]:
    """The fields whose values tell a component's cards apart, most varied first (game-wide and component
    defaults, such as colours, are the same on every card and say nothing about which card it is)."""
    if len(component.cards) == 1:
        return []
    seen: dict[str, set] = {}
    for card in component.cards:
        for name, value in card.fields.items():
            seen.setdefault(name, set()).add(repr(value))
    missing = {name for name in seen if any(name not in c.fields for c in component.cards)}
    varied = [name for name in seen if len(seen[name]) > 1 or name in missing]
    # Most varied first; among equals the shorter values (a name, a number) before long texts.
    return sorted(varied, key=lambda name: (-len(seen[name]), sum(map(len, seen[name])) / len(seen[name])))


def describe_card(card: Card, names: list[str] | None = None, limit: int = 3) -> str:
    """"(number=7, ron=True)": the card by the given fields (distinguishing_fields), else (a component of one
    card) by its first ones."""
    if names is None or not any(name in card.fields for name in names):
        names = [k for k, v in card.fields.items() if isinstance(v, (int, str)) and not isinstance(v, bool)]
    shown = [f"{name}={shorten(card.fields[name])}" for name in names if card.fields.get(name) not in (None, "")][:limit]
    return f"({', '.join(shown)})" if shown else ""


def shorten(value, limit: int = 12) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_holding(card: Card, content: str | None) -> str:
    """The field whose text is the text that did not fit: the one equal to it, else the longest one within it
    (a short field such as a name is often part of a longer effect text that merely repeats it)."""
    if not content:
        return ""
    texts = [(name, str(value).strip()) for name, value in card.fields.items()
             if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value).strip()]
    exact = [name for name, text in texts if text == content.strip()]
    within = sorted((text for name, text in texts if text in content), key=len, reverse=True)
    if exact:
        return f"field '{exact[0]}' "
    if within:
        return f"field '{next(name for name, text in texts if text == within[0])}' "
    return ""
