"""The shape of the code (issue 28 §4, "Gates"): "No module over 600 lines
and no function over 60 lines in `src/tavern`, unless its opening
docstring says why in a sentence that begins 'Long because'."

A long module or function is where the next change costs most; the rule
lets one stay long only when it says why, where the reader looks first.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parents[1] / "src" / "tavern"
MODULE_LINES = 600
FUNCTION_LINES = 60


def _says_why(node: ast.AST) -> bool:
    doc = ast.get_docstring(node) if isinstance(
        node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) else None
    return "Long because" in (doc or "")


def _too_long(source: str, path: str) -> list[str]:
    """What in ``source`` breaks the rule, as ``path:line name (n lines)``."""
    tree = ast.parse(source)
    found = []
    lines = len(source.splitlines())
    if lines > MODULE_LINES and not _says_why(tree):
        found.append(f"{path} ({lines} lines)")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > FUNCTION_LINES and not _says_why(node):
                found.append(f"{path}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_module_or_function_is_long_without_saying_why() -> None:
    found = [f for p in sorted(SRC.rglob("*.py"))
             for f in _too_long(p.read_text(encoding="utf-8"), str(p.relative_to(SRC)))]
    assert found == [], "too long, without a docstring saying 'Long because …':\n" + "\n".join(found)


def test_the_check_finds_a_long_function_and_accepts_one_that_says_why() -> None:
    """The gate itself can fail: a 61-line function is found, the same
    function saying why is not, and a 60-line one is fine."""
    body = "".join(f"    x{i} = {i}\n" for i in range(59))
    long_fn = "def f():\n" + body + "    return 0\n"
    assert _too_long(long_fn, "m.py") == ["m.py:1 f (61 lines)"]
    why = 'def f():\n    """Long because it lists sixty things."""\n' + body + "    return 0\n"
    assert _too_long(why, "m.py") == []
    assert _too_long("def f():\n" + body, "m.py") == []
    big = "\n".join(f"x{i} = {i}" for i in range(601)) + "\n"
    assert _too_long(big, "m.py") == ["m.py (601 lines)"]
