"""Small readers of tree-sitter nodes that every extractor module shares."""

from __future__ import annotations

from tree_sitter import Node


def first_line(n: Node) -> int:
    return n.start_point[0] + 1


def last_line(n: Node) -> int:
    """Line of the last character (a node ending at column 0 ends on the line before)."""
    row, col = n.end_point
    if col == 0 and row > n.start_point[0]:
        row -= 1
    return row + 1


def text_of(n: Node | None) -> str:
    return n.text.decode("utf-8", "replace") if n is not None and n.text is not None else ""


def child_of(node: Node | None, type_: str) -> Node | None:
    if node is None:
        return None
    return next((c for c in node.named_children if c.type == type_), None)


def descendants(node: Node, type_: str) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == type_:
            out.append(n)
        else:
            stack.extend(reversed(n.named_children))
    return out
