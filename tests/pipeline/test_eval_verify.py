"""`certiq eval verify` on a tiny hand-made pairs file: labels, metrics and --json keys.

The metrics are checked against the lexical verifier, whose verdicts on these pairs follow from
its rules; the default verifier (certiq's model) is checked for its name and a 2-way file."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from certiq.cli import main

PAIRS = [
    # rendered VERIFIED (exact quote) and labelled entail: a supported claim certified
    {
        "claim": "Backups are kept for 35 days.",
        "evidence": "Backups are kept for 35 days.",
        "label": "entail",
    },
    # rendered UNVERIFIED (a number the evidence lacks), labelled entail: a supported claim missed
    {
        "claim": "Backups are kept for 90 days.",
        "evidence": "Backups are kept for 35 days.",
        "label": "entail",
    },
    # rendered BLOCKED (one-sided negation), labelled contradict: right
    {
        "claim": "Backups are not encrypted.",
        "evidence": "Backups are encrypted.",
        "label": "contradict",
    },
    # rendered VERIFIED, labelled neutral: a false certification
    {
        "claim": "Staff book travel.",
        "evidence": "Staff book travel through the agency.",
        "label": "neutral",
    },
]


LEXICAL = {"CERTIQ_VERIFICATION__VERIFIER": "lexical", "CERTIQ_EMBEDDING__PROVIDER": "none"}


def test_eval_verify_prints_the_metrics_as_json(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(pair) for pair in PAIRS) + "\n")
    env = {**LEXICAL, "CERTIQ_HOME": str(tmp_path / "home")}
    result = CliRunner().invoke(main, ["eval", "verify", "--pairs", str(pairs), "--json"], env=env)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {
        "balanced_accuracy",
        "false_certification_rate",
        "supported_recall",
        "pairs_per_s",
    }
    # entail recall 1/2, contradict recall 1/1, neutral recall 0/1
    assert report["balanced_accuracy"] == 0.5
    assert report["false_certification_rate"] == 0.5
    assert report["supported_recall"] == 0.5
    assert report["pairs_per_s"] > 0


def test_eval_verify_prints_a_readable_report(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps(pair) for pair in PAIRS) + "\n")
    env = {**LEXICAL, "CERTIQ_HOME": str(tmp_path / "home")}
    result = CliRunner().invoke(main, ["eval", "verify", "--pairs", str(pairs)], env=env)
    assert result.exit_code == 0, result.output
    assert "4 pairs, verifier lexical" in result.output
    assert "false-certification rate  0.5000" in result.output


def test_eval_verify_scores_two_way_pairs_with_the_default_model(tmp_path: Path) -> None:
    # GIVEN FEVER-style pairs: entail, or not_entail (refuted or unknown, not told apart)
    pairs = tmp_path / "pairs.jsonl"
    rows = [
        {
            "claim": "Backups are kept for 35 days.",
            "evidence": "Backups are kept for 35 days.",
            "label": "entail",
        },
        {
            "claim": "Backups are kept for 90 days.",
            "evidence": "Backups are kept for 35 days.",
            "label": "not_entail",
        },
    ]
    pairs.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    env = {"CERTIQ_HOME": str(tmp_path / "home"), "CERTIQ_EMBEDDING__PROVIDER": "none"}
    # WHEN the default verifier scores them
    result = CliRunner().invoke(main, ["eval", "verify", "--pairs", str(pairs)], env=env)
    # THEN certiq's model judges, the quote is certified and the changed number is not
    assert result.exit_code == 0, result.output
    assert "2 pairs, verifier nli:certiq-verifier-minilm-v2" in result.output
    assert "balanced accuracy         1.0000" in result.output
    assert "pairs/s" in result.output
    # AND it says where the model ran: onnxruntime, installed here
    assert "runtime                   onnxruntime" in result.output
