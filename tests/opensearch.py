"""A real OpenSearch node for the tests (a pytest plugin, named in tests/conftest.py).

One node per run, started by scripts/opensearch_node.py (OpenSearch 2.19 with k-NN and
neural-search, from Maven Central) on a free port, and stopped at the end; the run's summary
names its version and plugins and how long it took to start. Each test that asks for
``opensearch_url`` finds it with no index left by another test. Tests that need the node skip,
saying why, only where Java or Maven is missing; a node that fails to start is an error.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

NODE_SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "opensearch_node.py"


def node_script() -> ModuleType:
    """scripts/opensearch_node.py as a module (scripts/ is not a package)."""
    name = "certiq_opensearch_node"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, NODE_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@dataclass
class RunningNode:
    """The run's node: its URL, what it runs, and the script that started it."""

    url: str
    description: str
    script: ModuleType


STARTED = pytest.StashKey[str]()


@pytest.fixture(scope="session")
def opensearch_node(request: pytest.FixtureRequest) -> Iterator[RunningNode]:
    script = node_script()
    missing = script.tools_missing()
    if missing:
        pytest.skip(f"no OpenSearch node: {missing}")
    began = time.monotonic()
    node = script.start(port=0)
    try:
        description = script.describe(node.url)
        request.config.stash[STARTED] = (
            f"{description}, started in {time.monotonic() - began:.1f} s at {node.url}"
        )
        yield RunningNode(node.url, description, script)
    finally:
        script.stop(node)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Names the node the run used (what `make test` and CI ran against)."""
    started = config.stash.get(STARTED, None)
    if started is not None:
        terminalreporter.write_line(f"OpenSearch node for the tests: {started}")


@pytest.fixture
def opensearch_url(opensearch_node: RunningNode) -> Iterator[str]:
    """The node's URL, with no index of an earlier test on it (and none left after)."""
    delete_indices(opensearch_node.url)
    yield opensearch_node.url
    delete_indices(opensearch_node.url)


def delete_indices(url: str) -> None:
    """Deletes every index but the node's own (hidden, dot-named) ones."""
    for row in _request(url, "GET", "/_cat/indices?format=json"):
        name = row["index"]
        if not name.startswith("."):
            _request(url, "DELETE", f"/{name}")


def _request(url: str, method: str, path: str) -> Any:
    request = urllib.request.Request(f"{url}{path}", method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())
