"""Certificates an auditor can rely on, through the `certiq` command: the local hash chain that
`certiq verify --all` walks, a signing key kept outside the data folder, and an exported
certificate checked on another machine with nothing but the published public key.

Real PDFs (generated), the real pipeline and SQLite store; the rewrites are done to the stored
certificates directly, as someone with write access to the data folder would.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from certiq.adapters.local.key_file_signer import KeyFileSigner
from certiq.cli import main
from certiq.models import Certificate
from certiq.trust.certificate import seal_and_sign
from tests.conftest import MakePdf

QUESTIONS = [
    "How long are backups of customer data kept?",
    "How long are paper records kept before they are shredded?",
    "How far ahead must staff book travel?",
]


@pytest.fixture
def certified(tmp_path: Path, make_pdf: MakePdf) -> tuple[Path, Path, list[str]]:
    """A data folder with three answered questions, signed by a key kept outside it."""
    home, key_file = tmp_path / "home", tmp_path / "keys" / "certiq-signing.pem"
    folder = tmp_path / "library"
    folder.mkdir()
    (folder / "retention.pdf").write_bytes(
        make_pdf(
            [
                ["Backups of customer data are kept for 35 days and then deleted."],
                ["Paper records are shredded after seven years."],
            ]
        )
    )
    (folder / "travel.pdf").write_bytes(
        make_pdf([["Staff book travel through the approved agency at least 14 days ahead."]])
    )
    assert run(home, key_file, "ingest", str(folder)).exit_code == 0
    certificate_ids = []
    for question in QUESTIONS:
        result = run(home, key_file, "ask", "--json", question)
        assert result.exit_code == 0, result.output
        certificate_ids.append(json.loads(result.output)["certificate_id"])
    return home, key_file, certificate_ids


def run(home: Path, key_file: Path, *args: str) -> Result:
    env = {
        "CERTIQ_HOME": str(home),
        "CERTIQ_SIGNING__KEY_FILE": str(key_file),
        "CERTIQ_REUSE__ENABLED": "false",
    }
    return CliRunner().invoke(main, list(args), env=env)


def rewrite(home: Path, certificate: Certificate) -> None:
    with sqlite3.connect(home / "certiq.db") as conn:
        conn.execute(
            "UPDATE certificates SET body = ? WHERE certificate_id = ?",
            (certificate.model_dump_json(), certificate.certificate_id),
        )


def stored(home: Path, certificate_id: str) -> Certificate:
    with sqlite3.connect(home / "certiq.db") as conn:
        row = conn.execute(
            "SELECT body FROM certificates WHERE certificate_id = ?", (certificate_id,)
        ).fetchone()
    return Certificate.model_validate_json(row[0])


def test_the_signing_key_lives_where_the_setting_says_and_not_in_the_data_folder(
    certified: tuple[Path, Path, list[str]],
) -> None:
    home, key_file, _ = certified
    assert key_file.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert not list(home.glob("*.pem")) and not (home / "signing.key").exists()


def test_verify_all_walks_an_intact_chain(certified: tuple[Path, Path, list[str]]) -> None:
    # GIVEN three certificates, each sealing the seal of the one before
    home, key_file, ids = certified
    chain = [stored(home, certificate_id) for certificate_id in ids]
    assert chain[0].previous_seal is None
    assert [c.previous_seal for c in chain[1:]] == [c.seal for c in chain[:-1]]

    # WHEN the chain is walked / THEN every certificate checks and the head seal is printed
    result = run(home, key_file, "verify", "--all")
    assert result.exit_code == 0, result.output
    assert "3 certificates of tenant 'default' checked: all valid, chain intact." in result.output
    assert f"Head seal: {chain[-1].seal}" in result.output


def test_verify_all_names_a_rewritten_certificate(
    certified: tuple[Path, Path, list[str]],
) -> None:
    # GIVEN the middle certificate's answer rewritten in the data folder
    home, key_file, ids = certified
    middle = stored(home, ids[1])
    rewrite(home, middle.model_copy(update={"answer": "Paper records are kept forever."}))

    # WHEN the chain is walked
    result = run(home, key_file, "verify", "--all")

    # THEN it fails, naming that certificate and the field that changed, and only that one
    assert result.exit_code == 1
    assert f"INVALID  {ids[1]}: first difference in 'answer'" in result.output
    assert ids[0] not in result.output and ids[2] not in result.output.split("Head seal")[0]
    assert "1 not sound" in result.output


def test_a_certificate_re_sealed_with_the_key_breaks_the_link_of_the_next(
    certified: tuple[Path, Path, list[str]],
) -> None:
    # GIVEN someone who holds the signing key re-seals a rewritten middle certificate: it
    # checks on its own
    home, key_file, ids = certified
    middle = stored(home, ids[1])
    forged = seal_and_sign(
        middle.model_copy(update={"answer": "Paper records are kept forever."}),
        KeyFileSigner(key_file),
    )
    rewrite(home, forged)
    assert run(home, key_file, "verify", ids[1]).exit_code == 0

    # WHEN the chain is walked
    result = run(home, key_file, "verify", "--all")

    # THEN the next certificate no longer seals it: the rewrite is found
    assert result.exit_code == 1
    assert f"BROKEN   {ids[2]}: does not seal the certificate before it ({ids[1]})" in (
        result.output
    )


def test_an_exported_certificate_verifies_on_another_machine_with_only_the_public_key(
    certified: tuple[Path, Path, list[str]], tmp_path: Path
) -> None:
    # GIVEN a certificate exported and the public key published
    home, key_file, ids = certified
    exported = run(home, key_file, "export", ids[0])
    public = run(home, key_file, "public-key")
    assert exported.exit_code == 0 and public.exit_code == 0
    assert public.output.startswith("-----BEGIN PUBLIC KEY-----")
    elsewhere = tmp_path / "auditor"
    elsewhere.mkdir()
    (elsewhere / "certificate.json").write_text(exported.output)
    (elsewhere / "certiq.pub.pem").write_text(public.output)

    # WHEN another process, with an empty data folder and no key, checks it
    def verify_elsewhere(certificate_file: Path) -> subprocess.CompletedProcess[str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("CERTIQ_")}
        env["CERTIQ_HOME"] = str(elsewhere / "empty-home")
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "certiq.cli",
                "verify",
                "--file",
                str(certificate_file),
                "--public-key",
                str(elsewhere / "certiq.pub.pem"),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=elsewhere,
            timeout=60,
        )

    checked = verify_elsewhere(elsewhere / "certificate.json")

    # THEN it is VALID, and nothing was created there: no data folder, no key
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith(f"VALID  {ids[0]}")
    assert not (elsewhere / "empty-home").exists()

    # AND the same file with its answer changed is INVALID, naming the field
    tampered = json.loads(exported.output)
    tampered["answer"] = "Backups are kept forever."
    (elsewhere / "tampered.json").write_text(json.dumps(tampered))
    refused = verify_elsewhere(elsewhere / "tampered.json")
    assert refused.returncode == 1
    assert f"INVALID  {ids[0]}: first difference in 'answer'" in refused.stdout


def test_verify_refuses_a_file_without_a_key_and_a_key_that_is_not_one(
    certified: tuple[Path, Path, list[str]], tmp_path: Path
) -> None:
    home, key_file, ids = certified
    exported = tmp_path / "certificate.json"
    exported.write_text(run(home, key_file, "export", ids[0]).output)
    no_key = run(home, key_file, "verify", "--file", str(exported))
    assert no_key.exit_code == 2 and "--public-key" in no_key.output
    not_a_key = tmp_path / "not-a-key.pem"
    not_a_key.write_text("hello")
    refused = run(home, key_file, "verify", "--file", str(exported), "--public-key", str(not_a_key))
    assert refused.exit_code == 1 and "not a PEM public key" in refused.output
