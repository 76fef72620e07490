"""The import rule of layers/core/certiq (docs/architecture.md): no upward import, no cycle.

Each part of the package (a top-level module or package; each adapters/ folder on its own) sits
in a layer. A module may import from its own layer or below, never above; and the parts' import
graph has no cycle, so parts of one layer depend on each other in one direction only. Every
import counts: at module level, inside functions (imported late for cold starts) and under
TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "layers" / "core" / "certiq"

# Lowest first. A part missing here fails the test: a new part is given its place on purpose.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"certiq", "errors", "text", "sentences", "lazy"}),
    frozenset({"models", "config"}),
    frozenset({"ports", "schemas", "deps"}),
    frozenset({"trust", "guardrails"}),
    frozenset({"ingestion", "retrieval", "answering", "statemachine"}),
    frozenset({"steps", "questions"}),
    frozenset({"adapters", "adapters.local", "adapters.aws", "adapters.llm", "web"}),
    frozenset({"api"}),
    frozenset({"bootstrap"}),
    frozenset({"runtime", "cli", "evaluation"}),
)
LAYER_OF = {part: rank for rank, parts in enumerate(LAYERS) for part in parts}


def part_of(module: str) -> str:
    """``adapters.local`` of certiq.adapters.local.fts_index, ``steps`` of certiq.steps.x."""
    names = module.split(".")
    if len(names) == 1:
        return "certiq"
    if names[1] == "adapters" and len(names) > 2:
        return f"adapters.{names[2]}"
    return names[1]


def module_name(path: Path) -> str:
    names = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if names[-1] == "__init__":
        names.pop()
    return ".".join(names)


def imports() -> list[tuple[str, str]]:
    """(importing module, imported certiq module) for every import in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            found += [(module, target) for target in targets if target.split(".")[0] == "certiq"]
    return found


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {part_of(module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert parts - LAYER_OF.keys() == set()


def test_no_module_imports_from_a_higher_layer() -> None:
    upward = sorted(
        f"{source} imports {target}"
        for source, target in imports()
        if LAYER_OF[part_of(target)] > LAYER_OF[part_of(source)]
    )
    assert upward == []


def test_the_parts_import_graph_has_no_cycle() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in imports():
        if part_of(source) != part_of(target):
            graph[part_of(source)].add(part_of(target))
    cycles = []
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    cycles.append(" -> ".join([*path, start]))
                elif nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    assert cycles == []


def test_the_rule_sees_an_upward_import() -> None:
    # A check that cannot fail is no check: the walk must see what the rule forbids.
    found = imports()
    assert ("certiq.bootstrap.local", "certiq.adapters.local.fts_index") in found
    assert LAYER_OF[part_of("certiq.cli")] > LAYER_OF[part_of("certiq.models")]
