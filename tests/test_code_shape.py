"""The shape of the code (issue 28 §4, "Gates"): "No module over 600 lines
and no function over 60 lines in `src/tavern`, unless its opening
docstring says why in a sentence that begins 'Long because'."

A long module or function is where the next change costs most; the rule
lets one stay long only when it says why, where the reader looks first.
"""

from __future__ import annotations

import ast
import re
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


STATIC = SRC / "web" / "static"
SHELL_LINES = 250


def test_the_table_shell_stays_small_and_its_parts_say_what_they_own() -> None:
    """The house rule: "The browser side mirrors the server: a small table
    shell plus one ES module per game (its felt, controls and result panel),
    not one growing `table.js`." The shell (static/table.js) stays under its
    budget; each shared part under static/table/ opens with a comment saying
    what it owns and is imported by the shell or another part (none left
    behind); every relative import of the shell and its parts names a file
    that exists (a typo would only show as a blank table in the browser)."""
    shell = STATIC / "table.js"
    lines = len(shell.read_text(encoding="utf-8").splitlines())
    assert lines < SHELL_LINES, f"static/table.js has {lines} lines: move a part to static/table/ (docs/table-ui.md)"
    parts = sorted((STATIC / "table").glob("*.js"))
    assert parts, "static/table/ holds the shell's shared parts"
    imported: set[Path] = set()
    for script in [shell, *parts]:
        text = script.read_text(encoding="utf-8")
        for target in re.findall(r'^import [^;]*? from "(\.{1,2}/[^"]+)";', text, re.M):
            path = (script.parent / target).resolve()
            assert path.is_file(), f"{script.name} imports {target}, which does not exist"
            imported.add(path)
    for part in parts:
        assert part.read_text(encoding="utf-8").startswith("/* "), f"table/{part.name}: say what it owns first"
        assert part.resolve() in imported, f"table/{part.name} is imported by no part of the table"
