"""`certiq ask` says when an answer was reused, and reads follow-ups with their conversation."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from certiq.cli import main
from tests.conftest import MakePdf

QUESTION = "How long are backups of customer data kept?"


def run(home: Path, *args: str) -> Result:
    result = CliRunner().invoke(main, list(args), env={"CERTIQ_HOME": str(home)})
    assert result.exit_code == 0, result.output
    return result


def test_ask_twice_then_a_follow_up(tmp_path: Path, make_pdf: MakePdf) -> None:
    # GIVEN an ingested policy
    home = tmp_path / "home"
    pdf = tmp_path / "retention.pdf"
    pdf.write_bytes(
        make_pdf([["Backups of customer data are stored in Frankfurt and kept for 35 days."]])
    )
    run(home, "ingest", str(pdf))

    # WHEN the question is asked twice
    first = json.loads(run(home, "ask", QUESTION, "--json").output)
    second = run(home, "ask", QUESTION)

    # THEN the second answer says it reused the first one's, naming its certificate
    assert first["reused_from"] is None
    assert f"certificate {first['certificate_id']} (its documents are unchanged)" in second.output
    assert "Reused: the verified answer to" in second.output

    # WHEN a follow-up is asked in a conversation THEN the query it was searched as is shown
    # (not "stored": it means kept, and the query would be the question asked above, reused)
    run(home, "ask", "Where are backups of customer data located?", "--conversation", "c1")
    follow_up = run(home, "ask", "How long are they kept?", "--conversation", "c1")
    assert "Searched as: How long are they kept? backups customer data located  (rules)" in (
        follow_up.output
    )
