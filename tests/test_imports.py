"""The package's import graph, read with ``ast`` from the source (nothing is imported).

The lab stays outside the package, pure code stays free of Scrapy, Twisted and the sandbox, the store does not
reach into the integration, and no module imports itself back. Every ``import`` statement counts, at the top of a
module or inside a function alike: a function-level import defers a cycle, it does not remove it.
"""

from __future__ import annotations

import ast
import re
import tomllib
from functools import cache
from pathlib import Path

import pytest

import journals

PACKAGE_DIR = Path(journals.__file__).resolve().parent
PROJECT_ROOT = PACKAGE_DIR.parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}
LAB_MODULES: dict[str, Path] = {_module_name(path): path for path in sorted((PROJECT_ROOT / "lab").rglob("*.py"))}


def _mypy_checks(path: Path) -> bool:
    """Whether ``mypy`` (its ``files`` and ``exclude`` in ``pyproject.toml``) checks the file at ``path``: an
    exclude pattern is matched against the file's path and each of its folders' (``journals/pages/``)."""
    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    relative = path.relative_to(PROJECT_ROOT)
    if not any(relative.is_relative_to(root) for root in config["files"]):
        return False
    candidates = [relative.as_posix(), *(f"{parent.as_posix()}/" for parent in relative.parents if parent.parts)]
    return not any(re.search(pattern, candidate) for pattern in config["exclude"] for candidate in candidates)


MYPY_CHECKED = frozenset(module for module, path in MODULES.items() if _mypy_checks(path))

SCRAPY_ROLES = (
    "journals.commands",
    "journals.downloadermiddlewares",
    "journals.exporters",
    "journals.extensions",
    "journals.logformatter",
    "journals.pipelines",
    "journals.scheduler",
    "journals.spidermiddlewares",
    "journals.spiders",
)
"""Scrapy's components (commands, middlewares, pipelines, extensions, the scheduler's parts, spiders, the feed
exporter, the log formatter), in folders named as Scrapy names its own (its ``exporters.py`` and ``logformatter.py``
modules, as Scrapy's are): thin over the
pure code. The one hand-kept list of what is glue: a folder not named here (nor the sandbox) is pure."""
SANDBOX = "journals.sandbox"


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


def _folder(module: str) -> str:
    """The top-level package (or loose module) of ``journals`` that ``module`` sits in."""
    return ".".join(module.split(".")[:2])


FOLDERS = sorted({_folder(module) for module in MODULES if module != "journals"})
PURE = tuple(folder for folder in FOLDERS if not _within(folder, (*SCRAPY_ROLES, SANDBOX)))
"""Packages and modules that import neither Scrapy, Twisted nor the sandbox, directly or through another module:
every folder but Scrapy's role folders and the sandbox."""
ALGORITHMS = (
    "journals.domain",
    "journals.extraction",
    "journals.integration",
    "journals.journal_identity",
    "journals.mdr",
    "journals.pages",
    "journals.vocabulary",
)
"""Pure code that takes HTML or rows and returns plain data: no database either."""
SANDBOX_USERS = ("journals.commands.sandbox",)
"""Modules outside the sandbox that may import it: ``scrapy sandbox`` serves it."""
SCRAPY_AND_TWISTED = ("scrapy", "twisted")
DATABASE = ("sqlalchemy",)


def imports_of(path: Path, module: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each import statement of the file at ``path`` (module ``module``), at any depth: the absolute module it
    imports from and the names it takes (none for ``import a.b``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    statements: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            statements.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            statements.append((source, tuple(alias.name for alias in node.names)))
    return statements


@cache
def imported_names(module: str) -> frozenset[str]:
    """Every name ``module`` imports, absolute (``from a import b`` gives ``a`` and ``a.b``), at any depth."""
    names: set[str] = set()
    for source, taken in imports_of(MODULES[module], module):
        names.add(source)
        names.update(f"{source}.{name}" for name in taken)
    return frozenset(names)


@cache
def package_imports(module: str) -> frozenset[str]:
    """The modules of ``journals`` that ``module`` imports (a name ``a.b.C`` counts as module ``a.b``)."""
    found = set()
    for name in imported_names(module):
        owner = name
        while owner and owner not in MODULES:
            owner = owner.rpartition(".")[0]
        if owner and owner != module:
            found.add(owner)
    return frozenset(found)


def reached(module: str) -> set[str]:
    """``module`` and every module of ``journals`` it imports, directly or not, with the packages they sit in."""
    seen: set[str] = set()
    waiting = [module]
    while waiting:
        current = waiting.pop()
        if current in seen:
            continue
        seen.add(current)
        parts = current.split(".")
        waiting.extend(".".join(parts[:n]) for n in range(1, len(parts)))  # a package runs before its modules
        waiting.extend(package_imports(current))
    return seen


def external_imports(modules: set[str]) -> dict[str, set[str]]:
    """Per module, the top-level names of what it imports from outside ``journals``."""
    return {
        module: {name.split(".")[0] for name in imported_names(module) if not _within(name, ("journals",))}
        for module in modules
    }


def members(package: str) -> list[str]:
    """The modules of ``package`` (itself included)."""
    return [module for module in MODULES if _within(module, (package,))]


def test_the_walk_sees_the_package():
    assert {"journals", "journals.mdr.mining", "journals.spiders.publisher", "journals.store.models"} <= set(MODULES)
    assert "journals.mdr.mining" in package_imports("journals.mdr")
    assert "journals.items" in package_imports("journals.spiders.publisher")
    assert "scrapy" in external_imports({"journals.spiders.publisher"})["journals.spiders.publisher"]
    assert {"journals", "journals.mdr", "journals.mdr.tagtree"} <= reached("journals.mdr.mining")


def test_scrapy_components_sit_in_their_role_folders():
    """No loose Scrapy component at the top of the package: a module of ``journals`` itself that imports Scrapy is
    one of :data:`SCRAPY_ROLES` (the feed exporter, a module as Scrapy's own)."""
    loose = {module for module in MODULES if module.count(".") == 1 and module not in SCRAPY_ROLES}
    assert {module for module, names in external_imports(loose).items() if "scrapy" in names} == set()
    modules = ("journals.exporters", "journals.logformatter")
    assert all(MODULES[role].name == "__init__.py" for role in SCRAPY_ROLES if role not in modules)
    assert set(PURE) >= {"journals.domain", "journals.pages", "journals.store", "journals.mdr"}


def test_every_import_of_journals_or_the_lab_names_a_module():
    """A module moved or renamed leaves no import of its old path, in the package, the lab or the tests."""
    known = MODULES.keys() | LAB_MODULES.keys()
    files = {**MODULES, **LAB_MODULES}
    files.update({_module_name(path): path for path in (PROJECT_ROOT / "tests").rglob("*.py")})
    stale = {
        f"{module}: {source}"
        for module, path in files.items()
        for source, _ in imports_of(path, module)
        if _within(source, ("journals", "lab")) and source not in known
    }
    assert not stale


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_the_lab(module):
    assert not {name for name in imported_names(module) if _within(name, ("lab",))}


@pytest.mark.parametrize("package", PURE)
def test_pure_code_imports_neither_scrapy_twisted_nor_the_sandbox(package):
    modules = set().union(*(reached(module) for module in members(package)))
    offending = {
        module: sorted(names & set(SCRAPY_AND_TWISTED))
        for module, names in external_imports(modules).items()
        if names & set(SCRAPY_AND_TWISTED)
    }
    assert not offending, f"{package} reaches Scrapy or Twisted through {offending}"
    assert not {module for module in modules if _within(module, (SANDBOX,))}
    assert not {module for module in modules if _within(module, SCRAPY_ROLES) and module not in MYPY_CHECKED}


@pytest.mark.parametrize("package", ALGORITHMS)
def test_algorithms_import_no_database(package):
    modules = set().union(*(reached(module) for module in members(package)))
    assert not {module for module, names in external_imports(modules).items() if names & set(DATABASE)}
    assert not {module for module in modules if _within(module, ("journals.store",))}


def test_the_store_does_not_import_the_integration():
    modules = set().union(*(reached(module) for module in members("journals.store")))
    assert not {module for module in modules if _within(module, ("journals.integration",))}


def test_only_the_sandbox_and_its_command_import_the_sandbox():
    importers = {
        module
        for module in MODULES
        if not _within(module, (SANDBOX,)) and any(_within(name, (SANDBOX,)) for name in package_imports(module))
    }
    assert importers <= set(SANDBOX_USERS)


def _cycles(graph: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root, targets in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(targets)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return components


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_the_package_has_no_import_cycle():
    graph = {module: package_imports(module) for module in MODULES}
    assert _cycles(graph) == []


def test_no_import_circle_between_folders():
    """The folders form layers: no folder imports one that imports it back, however indirectly."""
    graph: dict[str, set[str]] = {folder: set() for folder in FOLDERS}
    for module in MODULES:
        if module != "journals":
            graph[_folder(module)].update(
                _folder(target) for target in package_imports(module) if target != "journals"
            )
    assert _cycles({folder: frozenset(targets - {folder}) for folder, targets in graph.items()}) == []


def test_mypy_checks_every_pure_module_and_nothing_that_reaches_scrapy():
    """``make lint``'s ``mypy --strict`` follows the folders (``[tool.mypy]`` in ``pyproject.toml``): every module of
    a pure folder (the store included) is checked, and what it checks imports neither Scrapy nor Twisted."""
    unchecked = {module for package in PURE for module in members(package) if module not in MYPY_CHECKED}
    assert not unchecked
    reaching = {
        module
        for module, names in external_imports(set().union(*(reached(m) for m in MYPY_CHECKED))).items()
        if names & set(SCRAPY_AND_TWISTED)
    }
    assert not reaching
