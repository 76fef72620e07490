"""The self-hosted mode: the local runtime with its index in an OpenSearch cluster.

`certiq ingest`, `ask` and the API with CERTIQ_OPENSEARCH__ENDPOINT set, on a real node
(tests/opensearch.py): the same answer, citations and boxes as the local engine; a node that
stops mid-run gives errors in words and loses nothing; once it is back, the same commands
succeed.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from certiq.adapters.local.orchestrator import LocalRuntime
from certiq.bootstrap import build_deps
from certiq.cli import main
from certiq.config import OpenSearchSettings, Settings
from certiq.runtime.server import make_server
from tests.conftest import MakePdf
from tests.opensearch import RunningNode

FACT = "Backups of customer data are kept for 35 days and then deleted."
QUESTION = "How long are backups of customer data kept?"
UNREACHABLE = "cannot be reached (is the cluster running?)"


def run(home: Path, endpoint: str | None, *args: str) -> Result:
    env = {"CERTIQ_HOME": str(home)}
    if endpoint is not None:
        env["CERTIQ_OPENSEARCH__ENDPOINT"] = endpoint
    return CliRunner().invoke(main, list(args), env=env)


@pytest.fixture
def library(tmp_path: Path, make_pdf: MakePdf) -> Path:
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "retention.pdf").write_bytes(
        make_pdf(
            [
                ["Data retention policy.", f"Logs are rotated every week. {FACT}"],
                ["Paper records are shredded after seven years."],
            ]
        )
    )
    (folder / "travel.pdf").write_bytes(
        make_pdf([["Staff book travel through the approved agency at least 14 days ahead."]])
    )
    return folder


def answer_of(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.output)
    return answer


def what_it_says(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer as its reader sees it: words, states, and where each quote is."""
    return {
        "status": answer["status"],
        "answer": answer["answer"],
        "statements": [(s["text"], s["state"]) for s in answer["statements"]],
        "citations": [
            (c["file_name"], c["page"], c["quote"], c["boxes"], c["answers"])
            for c in answer["citations"]
        ],
    }


@pytest.mark.real_embedder
def test_the_self_hosted_index_answers_as_the_local_engine_does(
    tmp_path: Path, library: Path, opensearch_url: str
) -> None:
    # GIVEN the same PDFs ingested on the local engine and into the cluster, MiniLM embedding
    answers = {}
    for name, endpoint in (("local", None), ("opensearch", opensearch_url)):
        home = tmp_path / name
        ingested = run(home, endpoint, "ingest", str(library))
        assert "2 of 2 files indexed" in ingested.output, ingested.output

        # WHEN the same question is asked of each (hybrid retrieval, the default)
        answers[name] = answer_of(run(home, endpoint, "ask", "--json", QUESTION))

    # THEN both say the same, cite the same quotes on the same pages with the same boxes
    local, remote = what_it_says(answers["local"]), what_it_says(answers["opensearch"])
    assert local == remote
    assert FACT in remote["answer"] and remote["citations"]
    # AND the cluster holds the chunks, under the default index name
    with urllib.request.urlopen(f"{opensearch_url}/certiq-chunks/_count") as response:
        assert json.loads(response.read())["count"] > 0


def test_a_node_that_stops_mid_run_gives_worded_errors_and_its_return_lets_commands_succeed(
    tmp_path: Path, library: Path, make_pdf: MakePdf, opensearch_node: RunningNode
) -> None:
    script = opensearch_node.script
    home = tmp_path / "home"
    node = script.start(port=0)
    try:
        # GIVEN documents ingested into a node of this test's own, and a question answered
        endpoint = node.url
        assert "2 of 2 files indexed" in run(home, endpoint, "ingest", str(library)).output
        before = what_it_says(answer_of(run(home, endpoint, "ask", "--json", QUESTION)))
        assert before["status"] == "COMPLETE"

        # WHEN the node stops
        script.stop(node, keep_data=True)

        # THEN a question fails, saying the search cluster cannot be reached, and may be asked
        # again; no trace reaches the user
        asked = run(home, endpoint, "ask", QUESTION)
        assert "FAILED" in asked.output and UNREACHABLE in asked.output, asked.output
        assert "Traceback" not in asked.output and "urllib3" not in asked.output

        # AND a new PDF ends FAILED with the reason in words, its original kept
        (tmp_path / "new").mkdir()
        new_pdf = tmp_path / "new" / "passwords.pdf"
        new_pdf.write_bytes(make_pdf([["Passwords must be at least twelve characters long."]]))
        ingested = run(home, endpoint, "ingest", str(new_pdf))
        assert ingested.exit_code == 1 and UNREACHABLE in ingested.output, ingested.output
        documents = json.loads(run(home, endpoint, "documents", "--json").output)
        [failed] = [d for d in documents if d["file_name"] == "passwords.pdf"]
        assert failed["status"] == "FAILED" and UNREACHABLE in failed["reason"]
        assert Path(failed["uri"].removeprefix("file://")).read_bytes() == new_pdf.read_bytes()

        # AND the API answers 503 naming the search index, in JSON
        status, body = _delete_through_api(home, endpoint, failed["doc_id"])
        assert status == 503 and "certiq-chunks" in body["message"], body
        assert UNREACHABLE in body["message"]

        # WHEN the node comes back with its data
        node = script.start(port=node.port, data_dir=Path(node.data_dir))

        # THEN the same commands succeed: the same answer, and the new PDF indexed
        after = what_it_says(answer_of(run(home, endpoint, "ask", "--json", QUESTION)))
        assert after == before
        assert "1 of 1 files indexed" in run(home, endpoint, "ingest", str(new_pdf)).output
    finally:
        script.stop(node)


def _delete_through_api(home: Path, endpoint: str, doc_id: str) -> tuple[int, Any]:
    deps = build_deps(Settings(home=home, opensearch=OpenSearchSettings(endpoint=endpoint)))
    server = make_server(deps, LocalRuntime(deps), "127.0.0.1", 0)
    with _serving(server):
        url = f"http://127.0.0.1:{server.server_port}/v1/documents/{doc_id}"
        request = urllib.request.Request(url, method="DELETE")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


@contextmanager
def _serving(server: Any) -> Iterator[None]:
    """Serves in a thread for the block, then shuts the server down."""
    import threading

    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        thread.join(timeout=10)


def test_eval_retrieval_runs_through_the_cluster_by_a_setting(
    tmp_path: Path, opensearch_url: str
) -> None:
    # GIVEN a small BEIR-format benchmark
    corpus = tmp_path / "corpus.jsonl"
    queries = tmp_path / "queries.jsonl"
    qrels = tmp_path / "qrels.tsv"
    documents = [
        ("10", "Backup retention", "Backups are kept for 35 days."),
        ("20", "Travel", "Staff book travel through the agency."),
        ("30", "Incidents", "The DPO is told within 24 hours."),
    ]
    corpus.write_text(
        "".join(json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in documents)
    )
    queries.write_text(
        json.dumps({"_id": "q1", "text": "how long are backups kept"})
        + "\n"
        + json.dumps({"_id": "q2", "text": "who books travel for staff"})
        + "\n"
    )
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\t10\t1\nq2\t20\t1\n")
    args = ["eval", "retrieval", "--corpus", str(corpus), "--queries", str(queries)]
    args += ["--qrels", str(qrels), "--mode", "bm25", "--json"]

    # WHEN it is measured on the local engine and, with the endpoint set, on the cluster
    local = json.loads(run(tmp_path / "home", None, *args).output)
    remote = json.loads(run(tmp_path / "home", opensearch_url, *args).output)

    # THEN both rank the answering document first, in an index of the corpus's own
    assert local["ndcg_at_10"] == remote["ndcg_at_10"] == 1.0
    assert remote["data_dir"].endswith("-opensearch") and remote["corpus_documents"] == 3
    with urllib.request.urlopen(f"{opensearch_url}/_cat/indices?format=json") as response:
        names = [row["index"] for row in json.loads(response.read())]
    [eval_index] = [name for name in names if name.startswith("certiq-chunks-eval-")]

    # WHEN the cluster loses the index (a new node) and the benchmark runs again
    deleting = urllib.request.Request(f"{opensearch_url}/{eval_index}", method="DELETE")
    urllib.request.urlopen(deleting).close()
    again = json.loads(run(tmp_path / "home", opensearch_url, *args).output)

    # THEN the corpus is indexed again rather than measured on an empty index
    assert again["ndcg_at_10"] == 1.0
