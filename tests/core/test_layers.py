"""The package's layers, read from the source: no game named in generic code, no import cycles,
no interface imported by the rules.

Why from the source (``ast``) and not at run time: an import inside a function, or one made only
for type checking, is a dependency too, and a name check must see code no test happens to run.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import parlour
from parlour import registry

SRC = Path(parlour.__file__).resolve().parent
BUILTIN = ("clobby", "sixbid", "schafkopf", "truc", "gops")
#: Words only one game's rules use, which generic code must leave to that game's text module.
GAME_WORDS = ("bella",)
#: The interfaces: what the rules, the engine and the records must never import.
UI = ("parlour.tui", "parlour.linemode", "parlour.cli", "parlour.text", "textual", "rich")
#: The layers below the interfaces.
CORE = ("parlour.engine", "parlour.registry", "parlour.records", "parlour.cards", "parlour.views", "parlour.bots",
        "parlour.table")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:  # a scratch file removed while the tests were collected
        return None


MODULES = {module_name(p): p for p in sorted(SRC.rglob("*.py"))}
SOURCES = {name: text for name, path in MODULES.items() if (text := _read(path)) is not None}
MODULES = {name: MODULES[name] for name in SOURCES}


def is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


@functools.cache
def imports(name: str) -> frozenset[str]:
    """Every module ``name`` imports, anywhere in it (top level, functions, ``TYPE_CHECKING``).

    Why cached: the import tests build the graph once each, and a parametrized test once per module;
    parsing every source again each time took 75 s of the suite (about 3 s a test)."""
    tree = ast.parse(SOURCES[name])
    package = name if is_package(name) else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            for alias in node.names:  # ``from . import registry`` imports a module
                if f"{target}.{alias.name}" in MODULES:
                    found.add(f"{target}.{alias.name}")
    return frozenset(found)


def graph() -> dict[str, set[str]]:
    """parlour's modules and the parlour modules each imports (a package stands for its ``__init__``)."""
    out: dict[str, set[str]] = {}
    for name in MODULES:
        targets = set()
        for target in imports(name):
            while target and target not in MODULES:  # ``parlour.x.func`` is the module parlour.x
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
        out[name] = targets
    return out


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def reachable(edges: dict[str, set[str]], start: str, everything: dict[str, set[str]]) -> set[str]:
    """Every module ``start`` imports, directly or not (external ones included, not followed)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        for target in everything[name]:
            if target not in seen:
                seen.add(target)
                if target in edges:
                    todo.append(target)
    return seen


def all_imports() -> dict[str, set[str]]:
    """Like ``graph`` but keeping imports from outside parlour (``textual``...) as they are written."""
    out = {}
    for name in MODULES:
        targets = set()
        for target in imports(name):
            inner = target
            while inner and inner not in MODULES and inner.startswith("parlour"):
                inner = inner.rpartition(".")[0]
            targets.add(inner or target)
        out[name] = targets
    return out


# -- no game named outside its package -------------------------------------------------------------
def game_names() -> set[str]:
    return set(BUILTIN) | set(registry.names())


def named_games(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, text) of every game name (or game-only word) used in a condition in ``source``.

    A condition is a comparison (``==``, ``!=``, ``in``...), the test of an ``if``/``while``/
    ``assert``/conditional expression/comprehension, a ``match`` case, or the argument of
    ``startswith``/``endswith``; a game-only word (``GAME_WORDS``) counts anywhere in a string there.
    """
    tree = ast.parse(source)
    hits: list[tuple[int, str]] = []

    def strings(node: ast.AST) -> list[ast.Constant]:
        return [n for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]

    conditions: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            conditions.append(node)
        elif isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            conditions.append(node.test)
        elif isinstance(node, ast.comprehension):
            conditions.extend(node.ifs)
        elif isinstance(node, ast.match_case):
            conditions.append(node.pattern)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "endswith"):
            conditions.extend(node.args)
    for condition in conditions:
        for const in strings(condition):
            if const.value in names or any(word in const.value for word in GAME_WORDS):
                hits.append((const.lineno, const.value))
    return sorted(set(hits))


def test_the_checker_finds_names_in_conditions():
    names = set(BUILTIN)
    bad = '''
if game != "gops":
    pass
x = 1 if view["game"] in ("clobby", "truc") else 2
y = [a for a in acts if a.endswith("+bella")]
match game:
    case "schafkopf":
        pass
'''
    assert [line for line, _ in named_games(bad, names)] == [2, 4, 4, 5, 7]
    fine = ('BUILTIN = {"gops": "parlour.games.gops"}\nparser.add_argument("--game", default="sixbid")\n'
            'def f():\n    """A card with +bella is said by its text module."""\n')
    assert named_games(fine, names) == []


def test_generic_code_never_names_a_game():
    names = game_names()
    found = []
    for name, path in MODULES.items():
        if name.startswith("parlour.games."):
            continue
        for line, text in named_games(SOURCES[name], names):
            found.append(f"{path.relative_to(SRC.parent)}:{line}: {text!r}")
    assert found == [], "generic code names a game (ask the game through a hook instead):\n" + "\n".join(found)


# -- imports ------------------------------------------------------------------------------------------
def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_has_no_cycles():
    assert cycles(graph()) == []


def test_the_graph_sees_imports_inside_functions():
    # tui/__init__.run imports the app inside the function: it must still be an edge
    assert "parlour.tui.app" in graph()["parlour.tui"]


def rules_modules() -> list[str]:
    return [name for name in MODULES if name.startswith("parlour.games.")
            and name.rpartition(".")[2] in ("rules", "views", "bots", "__init__")]


@pytest.mark.parametrize("module", sorted(set(CORE) & set(MODULES)) + rules_modules())
def test_rules_and_engine_never_import_an_interface(module):
    edges = graph()
    reached = reachable(edges, module, all_imports())
    bad = sorted(t for t in reached if any(t == ui or t.startswith(ui + ".") for ui in UI))
    assert bad == [], f"{module} imports interface modules: {bad}"


def test_the_terminal_table_does_not_import_line_mode():
    edges = graph()
    everything = all_imports()
    for name in MODULES:
        if name.startswith("parlour.tui"):
            reached = reachable(edges, name, everything)
            assert not any(t.startswith("parlour.linemode") for t in reached), name


def test_screens_never_import_the_app():
    edges = graph()
    everything = all_imports()
    for name in MODULES:
        if name.startswith(("parlour.tui.screens.", "parlour.tui.widgets.")):
            assert "parlour.tui.app" not in reachable(edges, name, everything), name


#: Private names of the standard library that are its public interface in practice.
STDLIB_PRIVATE = {("os", "_exit")}


def private_reads(source: str) -> list[tuple[int, str]]:
    """Where a module uses another module's private name: ``x._name`` with ``x`` not ``self`` or
    ``cls`` and ``_name`` not an attribute, function or class this module defines (an attribute
    it stores on any object is its own: the OpenSpiel adapter's cache on a game), or
    ``from m import _name``.

    Why: a private attribute is its module's to change (DESIGN.md); a solver or a bench that
    reads a state's privates breaks when the rules engine is rewritten, and a bot that reads
    them may peek at cards its seat cannot see.  A module reaches another's state through a
    public method (``ClobbyState.open_position``) instead.
    """
    tree = ast.parse(source)
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            found += [(node.lineno, f"from {'.' * node.level}{node.module} import {a.name}") for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        base = node.value
        if isinstance(base, ast.Name) and (base.id in ("self", "cls") or (base.id, node.attr) in STDLIB_PRIVATE):
            continue
        if node.attr not in own:
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_private_reads_checker_finds_them():
    source = ("from .rules import _WIN\n"
              "class A:\n    def __init__(self):\n        self._mine = 1\n"
              "    def peek(self, state):\n        return state._hands, self._mine, state._mine, os._exit\n")
    # state._mine: this module's own name (it sets self._mine), so another A's is fair
    assert private_reads(source) == [(1, "from .rules import _WIN"), (6, "state._hands")]


@pytest.mark.parametrize("module", MODULES)
def test_no_module_reads_another_modules_private_names(module):
    assert private_reads(SOURCES[module]) == [], f"{module} reads private names of other modules"
