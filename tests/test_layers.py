"""The package's layers import only downward, so the area of a feature can be read from its path.

Layer order (higher may import lower): service > cli > agents, analysis, training > cube >
rollouts > evaluation, formats > game > the core types at the top level (position, move,
match_state, ...) > bgcore. ``from bgengine import name`` imports the whole package, so it
counts as the top layer (only ``__version__`` is exempt). The one allowed upward edge is
the notation facade: ``Position``/``Game`` methods that parse and format notation
(``Position.from_xgid``, ``_repr_svg_``) import ``formats`` lazily.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "bgengine"

LAYERS = {
    "core": 0,
    "game": 1,
    "formats": 2,
    "evaluation": 2,
    "rollouts": 3,
    "cube": 4,
    "agents": 5,
    "analysis": 5,
    "training": 5,
    "cli": 6,
    "service": 7,
    "package": 8,  # bgengine/__init__.py and __main__.py re-export everything
}
#: (importing area, imported area) pairs allowed upward: the notation facade.
FACADE = {("core", "formats"), ("game", "formats")}


def area_of_module(dotted: str) -> str:
    """The area of ``bgengine.x.y``: its subpackage, or "core" for a top-level module."""
    parts = dotted.split(".")
    if parts[0] == "bgcore":
        return "bgcore"
    if len(parts) == 1:
        return "package"
    if parts[1] in LAYERS and parts[1] not in ("core", "package"):
        return parts[1]
    return "core"


def area_of_file(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    if relative.parts[0] in ("__init__.py", "__main__.py"):
        return "package"
    if len(relative.parts) == 1:
        return "core"
    return relative.parts[0]


def _package_member(name: str) -> str:
    """``bgengine.name`` for a submodule; ``bgengine`` (the whole package, the top layer) for
    anything else, since ``from bgengine import rollout`` imports every area first."""
    if (PACKAGE / f"{name}.py").exists() or (PACKAGE / name / "__init__.py").exists() or name == "__version__":
        return f"bgengine.{name}"
    return "bgengine"


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in the file, lazy ones inside functions included."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"{path}:{node.lineno}: relative import; use the absolute path")
            if node.module == "bgengine":  # a submodule, or a name of the package's public API
                found.extend((node.lineno, _package_member(alias.name)) for alias in node.names)
            elif node.module and node.module.split(".")[0] == "bgengine":
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names if alias.name.startswith("bgengine"))
    return found


SOURCES = sorted(p for p in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_import_only_their_own_layer_or_below(path):
    here = area_of_file(path)
    upward = []
    for line, module in imported_modules(path):
        there = area_of_module(module)
        if there in ("bgcore", here) or (here, there) in FACADE or module == "bgengine.__version__":
            continue
        if LAYERS[there] >= LAYERS[here]:
            upward.append(f"line {line}: {module} ({there} is not below {here})")
    assert not upward, f"{path.relative_to(PACKAGE)} imports upward:\n" + "\n".join(upward)


def test_no_module_is_hidden_by_a_name_its_package_exports():
    """``import bgengine.x.y as m`` must give the module, not a function of the same name."""
    import importlib

    hidden = []
    for init in PACKAGE.rglob("__init__.py"):
        package = ".".join(("bgengine", *init.parent.relative_to(PACKAGE).parts))
        exported = set(getattr(importlib.import_module(package), "__all__", ()))
        modules = {p.stem for p in init.parent.glob("*.py")} | {p.name for p in init.parent.iterdir() if p.is_dir()}
        hidden.extend(f"{package}.{name}" for name in exported & modules)
    assert not hidden
