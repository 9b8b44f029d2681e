"""No import circle among the bot's modules: every import counts, at the top of a module, under
`if TYPE_CHECKING:` (a circle the type checker follows is still a circle in the design) and
inside a function (an import put off to dodge a circle is still one).

An import of `bot.cogs.moves` also runs `bot/cogs/__init__.py` first, unless the importer sits
in that package already: that edge counts too, as Python takes it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "bot"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((ROOT / PACKAGE).rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The bot modules `name` imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            # `from bot import strings` imports the module bot.strings
            found.update(f"{target}.{alias.name}" for alias in node.names)
    edges: set[str] = set()
    for target in found:
        if target not in known:
            continue
        edges.add(target)
        # the packages on the way in run first, unless the importer is inside them already
        parts = target.split(".")
        for depth in range(1, len(parts)):
            ancestor = ".".join(parts[:depth])
            if not (name == ancestor or name.startswith(ancestor + ".")):
                edges.add(ancestor)
    edges.discard(name)
    return edges


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imported(name, path, known) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted: the
    modules that import one another, round and round."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def circle(component: list[str], edges: dict[str, set[str]]) -> list[str]:
    """One path from the component's first module back to itself (breadth first)."""
    members = set(component)
    start = component[0]
    came: dict[str, str] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(edges[node] & members):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if nxt not in came:
                came[nxt] = node
                queue.append(nxt)
    return component


def test_the_finder_finds_a_circle_and_names_it():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert circle(["a", "b", "c"], edges) == ["a", "b", "c", "a"]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_a_submodule_import_runs_its_package_first():
    known = {"bot", "bot.cogs", "bot.cogs.moves", "bot.boards", "bot.service",
             "bot.service.core"}
    edges = imported("bot.boards", ROOT / "bot" / "boards.py", known)
    assert all(e in known for e in edges)
    inside = {"bot.service.core"} & imported("bot.service.moves",
                                             ROOT / "bot" / "service" / "moves.py", known)
    assert inside == {"bot.service.core"}
    assert "bot.service" not in imported("bot.service.moves",
                                         ROOT / "bot" / "service" / "moves.py", known)


def test_no_import_circle_among_the_bots_modules():
    edges = graph()
    found = cycles(edges)
    assert not found, "import circles:\n" + "\n".join(
        f"{len(c)} modules ({', '.join(c)}), e.g. " + " -> ".join(circle(c, edges))
        for c in found)


def test_pastoral_square_is_named_only_by_its_kit_and_the_registry():
    """Issue 29's check, `grep -rlw pastoral --include='*.py' games render bot bench`: only the
    kit (games/pastoral/), its picture module and the registry line name the game; what the
    benchmarks need of it comes through the kit (its engine, its `baseline`)."""
    word = re.compile(r"\bpastoral\b")
    naming = {str(path.relative_to(ROOT)) for folder in ("games", "render", "bot", "bench")
              for path in sorted((ROOT / folder).rglob("*.py"))
              if word.search(path.read_text(encoding="utf-8"))}
    outside = {name for name in naming if not name.startswith("games/pastoral/")}
    assert outside <= {"games/__init__.py", "render/pastoral.py"}, outside
