"""`certiq eval`: retrieval and verification measured on benchmark data (a group of the
`certiq` command, certiq.cli)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from certiq.models import RetrievalMode


@click.group("eval")
def eval_group() -> None:
    """Measure retrieval and verification on benchmark data."""


@eval_group.command("retrieval")
@click.option("--corpus", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--queries", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--qrels", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--mode", type=click.Choice(["bm25", "dense", "hybrid"]), default=None)
@click.option("--json", "as_json", is_flag=True)
def eval_retrieval_command(
    corpus: Path, queries: Path, qrels: Path, mode: RetrievalMode | None, as_json: bool
) -> None:
    """nDCG@10, Recall@100, MRR@10 and query latency of a BEIR-format benchmark."""
    from certiq.bootstrap import build_deps, build_embedder
    from certiq.config import Settings
    from certiq.evaluation.retrieval import corpus_home, evaluate, prepare_corpus

    settings = click.get_current_context().find_object(Settings) or Settings()
    if (mode or settings.retrieval.mode) == "bm25":
        # BM25 reads no vector: the corpus is not embedded (15 minutes for SciFact on MiniLM).
        settings = settings.model_copy(
            update={"embedding": settings.embedding.model_copy(update={"provider": "none"})}
        )
    embedder = build_embedder(settings)
    home = corpus_home(settings, corpus, embedder.name if embedder else None)
    update: dict[str, object] = {"home": home}
    if settings.opensearch.endpoint:
        # The self-hosted mode: the corpus gets an index of its own in the cluster, and a data
        # directory of its own, so the local engine's ingested copy is never taken for it.
        home = home.with_name(f"{home.name}-opensearch")
        opensearch = settings.opensearch
        index = f"{opensearch.index}-eval-{home.name}"
        update = {"home": home, "opensearch": opensearch.model_copy(update={"index": index})}
    home.mkdir(parents=True, exist_ok=True)
    deps = build_deps(settings.model_copy(update=update))
    documents = prepare_corpus(
        corpus, deps, progress=lambda n: click.echo(f"  ingested {n} documents", err=True)
    )
    report = evaluate(deps, queries, qrels, mode or settings.retrieval.mode, documents)
    if as_json:
        click.echo(report.to_json())
        return
    click.echo(
        f"{corpus.name}: {report.queries} queries, {documents} documents, mode {report.mode}"
    )
    if report.mode_used != report.mode:
        click.echo(f"  (ran as {report.mode_used}: no embedder or no vectors)")
    click.echo(f"  nDCG@10     {report.ndcg_at_10:.4f}")
    click.echo(f"  Recall@100  {report.recall_at_100:.4f}")
    click.echo(f"  MRR@10      {report.mrr_at_10:.4f}")
    click.echo(
        f"  latency     p50 {report.latency_ms_p50:.2f} ms, p95 {report.latency_ms_p95:.2f} ms"
    )


@eval_group.command("verify")
@click.option("--pairs", required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True)
def eval_verify_command(pairs: Path, as_json: bool) -> None:
    """Balanced accuracy, false-certification rate and supported recall of the verifier
    chosen in settings (CERTIQ_VERIFICATION__*)."""
    from certiq.adapters.local.nli import NliVerifier
    from certiq.bootstrap import build_verifier
    from certiq.config import Settings
    from certiq.evaluation.verification import read_pairs, score_pairs

    settings = click.get_current_context().find_object(Settings) or Settings()
    verifier = build_verifier(settings)
    report = score_pairs(read_pairs(pairs), verifier, settings.policy)
    if as_json:
        click.echo(report.to_json())
        return
    click.echo(
        f"{pairs.name}: {report.pairs} pairs, verifier {verifier.name},"
        f" tau_entail {settings.policy.tau_entail}, tau_contradict {settings.policy.tau_contradict}"
    )
    click.echo(f"  balanced accuracy         {report.balanced_accuracy:.4f}")
    click.echo(f"  false-certification rate  {report.false_certification_rate:.4f}")
    click.echo(f"  supported recall          {report.supported_recall:.4f}")
    click.echo(f"  pairs/s                   {report.pairs_per_s:.1f}")
    if isinstance(verifier, NliVerifier):
        click.echo(f"  runtime                   {verifier.runtime}")
