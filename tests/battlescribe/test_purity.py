"""The engine is pure: the standard library and the project's finding type, nothing else.

No file access, YAML, XML, UI or PDF in listbuilder/battlescribe (its importing/ package, which
reads the XML, is the one exception), so that the engine can run anywhere the data can be given.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "listbuilder" / "battlescribe"
ALLOWED_PROJECT = ("listbuilder.battlescribe", "listbuilder.core.findings")
FORBIDDEN_STDLIB = {"os", "io", "pathlib", "shutil", "tempfile", "subprocess", "xml", "json"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            names.add("open")
    return names


def _engine_modules() -> list[Path]:
    return [p for p in sorted(ENGINE.rglob("*.py")) if "importing" not in p.relative_to(ENGINE).parts]


def test_engine_imports_only_the_standard_library_and_findings() -> None:
    for path in _engine_modules():
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("listbuilder"):
                assert name.startswith(ALLOWED_PROJECT), f"{path.name} imports {name}"
            else:
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"
                assert top not in FORBIDDEN_STDLIB and name != "open", f"{path.name} uses {name}"
