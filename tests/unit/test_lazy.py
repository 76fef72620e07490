"""Adapters built on first use (certiq.lazy)."""

from __future__ import annotations

import threading

from certiq.lazy import is_built, lazy


class Adapter:
    built = 0

    def __init__(self) -> None:
        Adapter.built += 1
        self.name = "adapter"

    def answer(self, question: str) -> str:
        return f"{self.name}: {question}"


def test_a_lazy_adapter_is_built_on_first_use_only_and_once() -> None:
    # GIVEN a lazy adapter
    Adapter.built = 0
    adapter = lazy(Adapter)
    # THEN nothing is built until it is used
    assert Adapter.built == 0 and not is_built(adapter)
    # WHEN it is used, from several threads at once
    threads = [threading.Thread(target=adapter.answer, args=("q",)) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # THEN it was built once, and it answers as the real one does
    assert Adapter.built == 1 and is_built(adapter)
    assert adapter.answer("why?") == "adapter: why?" and adapter.name == "adapter"
