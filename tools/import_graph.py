"""The import graph of the Python packages under ``host/`` and ``dev/``, read with :mod:`ast` (nothing is imported).

Prints, for the packages named (default: every package folder under ``host/`` and ``dev/``):

- the N largest modules by line count;
- the import circles: strongly connected components of the module graph with more than one
  module, counting imports at any depth (inside functions too, since a function-level import is
  still a dependency, only a late one);
- private names (``_x``) that one module imports from another;
- imports from one package of another that is not allowed (``--forbid A:B``: ``A`` must not import ``B``).

Usage::

    python3 tools/import_graph.py                  # every package under host/ and dev/
    python3 tools/import_graph.py --top 10 --json  # machine-readable

:func:`analyse` returns the same facts as a dict; ``tests/test_import_graph.py`` asserts on it.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROOTS = (REPO / "host", REPO / "dev")
"""The folders holding the packages: the user's (``host/pagesieve``) and the developers'
(``dev/pagesieve_dev``)."""


@dataclass
class Module:
    """One ``.py`` file: its dotted ``name``, ``path``, line count and the imports it makes."""

    name: str
    path: Path
    lines: int
    is_package: bool
    imports: set[str] = field(default_factory=set)  # dotted module names inside the analysed packages
    private: list[tuple[str, str, int]] = field(default_factory=list)  # (from module, name, line)


def _modules(roots: tuple[Path, ...], packages: list[str]) -> dict[str, Module]:
    """Every module of ``packages`` (folders under one of ``roots``), keyed by dotted name."""
    found: dict[str, Module] = {}
    for pkg in packages:
        root = next((r for r in roots if (r / pkg).is_dir()), roots[0])
        for path in sorted((root / pkg).rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = list(rel.parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join(parts)
            text = path.read_text(encoding="utf-8")
            found[name] = Module(name, path, text.count("\n"), is_package)
    return found


def _resolve(mod: Module, level: int, target: str | None) -> str:
    """The absolute dotted name of a relative ``from`` import in ``mod``."""
    if level == 0:
        return target or ""
    base = mod.name.split(".")
    if not mod.is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def _link(modules: dict[str, Module], dotted: str) -> str | None:
    """The analysed module that ``dotted`` names (or the longest analysed prefix of it), if any."""
    parts = dotted.split(".")
    while parts:
        name = ".".join(parts)
        if name in modules:
            return name
        parts.pop()
    return None


def _scan(modules: dict[str, Module]) -> None:
    """Fill each module's ``imports`` and ``private`` from its syntax tree (all depths)."""
    for mod in modules.values():
        tree = ast.parse(mod.path.read_text(encoding="utf-8"), filename=str(mod.path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _link(modules, alias.name)
                    if target and target != mod.name:
                        mod.imports.add(target)
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(mod, node.level, node.module)
                for alias in node.names:
                    # `from pkg import submodule` depends on the submodule, else on the module itself
                    sub = f"{source}.{alias.name}"
                    target = sub if sub in modules else _link(modules, source)
                    if target and target != mod.name:
                        mod.imports.add(target)
                    if (alias.name.startswith("_") and not alias.name.startswith("__")
                            and sub not in modules and _link(modules, source)):
                        mod.private.append((source, alias.name, node.lineno))


def _circles(modules: dict[str, Module]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm), sorted.

    A package's ``__init__`` importing its own submodules is not counted as a circle with them:
    a submodule importing its package only runs the package's ``__init__``, which Python has
    finished or is finishing by then; the graph drops the edge submodule -> own parent package.
    """
    graph = {
        name: {t for t in mod.imports if not name.startswith(t + ".")}
        for name, mod in modules.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def analyse(packages: list[str] | None = None, root: Path | tuple[Path, ...] = ROOTS,
            forbid: list[tuple[str, str]] = ()) -> dict:
    """The facts printed by this tool, as a dict.

    Args:
        packages: top-level package folders under ``root`` (default: all that hold ``__init__.py``).
        root: the folder, or folders, holding the packages (default :data:`ROOTS`: ``host/`` and
            ``dev/`` of this repository).
        forbid: pairs ``(A, B)``: package ``A`` must not import package ``B``.

    Returns:
        ``{"modules": [(name, lines)...] largest first, "circles": [[module, ...], ...],
        "private": [(importer, line, from module, name), ...], "forbidden": [(importer, imported), ...],
        "total_lines": int}``.
    """
    roots = (root,) if isinstance(root, Path) else tuple(root)
    if packages is None:
        packages = sorted({p.name for r in roots for p in r.iterdir() if (p / "__init__.py").is_file()})
    modules = _modules(roots, packages)
    _scan(modules)
    private = sorted(
        (m.name, line, src, nm) for m in modules.values() for src, nm, line in m.private
    )
    forbidden = sorted(
        (m.name, t) for m in modules.values() for t in m.imports
        for a, b in forbid if (m.name == a or m.name.startswith(a + ".")) and (t == b or t.startswith(b + "."))
    )
    return {
        "modules": sorted(((m.name, m.lines) for m in modules.values()), key=lambda x: (-x[1], x[0])),
        "circles": _circles(modules),
        "private": private,
        "forbidden": forbidden,
        "total_lines": sum(m.lines for m in modules.values()),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the report; exit status 1 if there is a circle or a forbidden import, else 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", help="package folders under host/ or dev/ (default: all)")
    parser.add_argument("--top", type=int, default=10, help="how many of the largest modules to list")
    parser.add_argument("--forbid", action="append", default=[], metavar="A:B",
                        help="package A must not import package B (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the facts as one JSON object")
    args = parser.parse_args(argv)
    forbid = [tuple(f.split(":", 1)) for f in args.forbid]
    facts = analyse(args.packages or None, forbid=forbid)
    if args.json:
        print(json.dumps(facts, indent=1))
    else:
        print(f"{facts['total_lines']} lines in {len(facts['modules'])} modules; largest:")
        for name, lines in facts["modules"][: args.top]:
            print(f"  {lines:6d}  {name}")
        print(f"import circles: {len(facts['circles'])}")
        for comp in facts["circles"]:
            print("  " + " <-> ".join(comp))
        print(f"private names imported across modules: {len(facts['private'])}")
        for importer, line, src, nm in facts["private"]:
            print(f"  {importer}:{line}  from {src} import {nm}")
        if forbid:
            print(f"forbidden imports: {len(facts['forbidden'])}")
            for a, b in facts["forbidden"]:
                print(f"  {a} -> {b}")
    return 1 if facts["circles"] or facts["forbidden"] else 0


if __name__ == "__main__":
    sys.exit(main())
