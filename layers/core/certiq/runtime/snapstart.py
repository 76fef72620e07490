"""Lambda SnapStart: a cold start that skips the imports and the clients.

With SnapStart on (template.yaml's SnapStart parameter, on by default), Lambda initialises a
function once, when a version is published, and starts each new execution environment from a
snapshot of that memory. Whatever the function builds before the snapshot is not paid again on
a cold start: its modules are imported then, and ``prime`` builds its Deps and the adapters its
step uses (certiq.steps.step_dependencies): an AWS client loads its service model and endpoint rules
(tens of milliseconds), the injection classifier its weights. Priming sends no request: a
connection opened before the snapshot would be stale in every restored environment.

Every restored environment holds the same copy of that memory, the ``random`` module's state
included: ``reseed`` gives each its own (botocore draws its retry jitter from it; ids and keys
come from os.urandom and need nothing).

The hooks are registered with snapshot_restore_py, which Lambda's managed Python runtime ships.
Where it is missing (the local runtime, which never snapshots) nothing is registered; with
SnapStart off, Lambda never calls them and the first invocation builds what it uses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from certiq.deps import Deps
from certiq.errors import ConfigurationError
from certiq.lazy import built

# The Deps fields that hold an AWS or OpenSearch client (building one sends nothing): what the
# API and ingest functions, which run no single step, have built before the snapshot.
CLIENT_FIELDS = (
    "questions",
    "documents",
    "certificates",
    "answers",
    "blobs",
    "signer",
    "archive",
    "index",
    "rechecks",
)


def prime(deps: Deps, fields: Iterable[str] = CLIENT_FIELDS) -> list[str]:
    """Builds those of ``fields`` this function's environment configures; returns them.

    A field whose setting the function lacks (template.yaml gives each function only what its
    step uses) is left unbuilt: its step never reaches it.
    """
    primed = []
    for field in fields:
        adapter = getattr(deps, field)
        if adapter is None:
            continue
        try:
            built(adapter)
        except ConfigurationError:
            continue
        primed.append(field)
    return primed


def reseed() -> None:
    """Draws a fresh seed from os.urandom: restored environments no longer share one."""
    random.seed()


def register_hooks(before_snapshot: Callable[[], object]) -> bool:
    """Runs ``before_snapshot`` before Lambda takes the snapshot, and ``reseed`` after each
    restore. False where the runtime hooks library is missing (nothing snapshots there)."""
    try:
        from snapshot_restore_py import register_after_restore, register_before_snapshot
    except ImportError:
        return False
    register_before_snapshot(before_snapshot)
    register_after_restore(reseed)
    return True
