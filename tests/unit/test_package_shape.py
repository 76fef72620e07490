"""The package's shape: modules a reader can take in at once."""

from __future__ import annotations

from pathlib import Path

import certiq

MOST_LINES = 500


def test_no_module_in_the_package_is_over_500_lines() -> None:
    # GIVEN every module of the certiq package
    root = Path(certiq.__file__).parent
    lengths = {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
    }
    # THEN none is longer than a reader can take in (split by role when one grows)
    assert {name: n for name, n in lengths.items() if n > MOST_LINES} == {}
    assert len(lengths) > 50  # the walk found the package
