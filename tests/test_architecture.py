"""The core is pure, and each outside library has one home (DESIGN.md, 'The interfaces are thin')."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "listbuilder"
PURE = ("core", "listengine", "games")
NOT_PURE = "/importing/"  # a game's import of the data users bring reads their files
FORBIDDEN_IN_PURE = {"textual", "reportlab", "ruamel", "yaml", "pathlib", "os", "io", "shutil", "tempfile", "open"}
HOMES = {"textual": "tui", "reportlab": "report/pdf/", "ruamel": ("data", "rosters")}


def imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
            names.add("open")
    return names


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), imports(path)


def test_core_engines_and_games_import_no_ui_pdf_yaml_or_files():
    for name, used in modules():
        if name.startswith(PURE) and NOT_PURE not in name:
            assert not used & FORBIDDEN_IN_PURE, f"{name} uses {used & FORBIDDEN_IN_PURE}"


def test_each_library_is_imported_only_in_its_home():
    for name, used in modules():
        for library, home in HOMES.items():
            if library in used:
                assert name.startswith(home), f"{name} imports {library}; only {home} may"
