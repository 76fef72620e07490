"""Model providers' keys from a Secrets Manager secret (moto), handed to the real SDK clients."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import boto3
import pytest
from pydantic import ValidationError

from certiq.adapters.aws.provider_keys import secret_keys
from certiq.adapters.llm.clients import anthropic_client, openai_client, provider_errors
from certiq.bootstrap import build_chat_model, build_embedder
from certiq.config import EmbeddingSettings, LlmSettings, Settings
from certiq.errors import ConfigurationError
from tests.contract.conftest import REGION, Aws
from tests.fakes import make_chunk, make_evidence
from tests.provider_fakes import (
    ProviderServer,
    Recorded,
    Reply,
    anthropic_message,
    anthropic_text,
    llm_settings,
    openai_completion,
)

if TYPE_CHECKING:
    from mypy_boto3_secretsmanager import SecretsManagerClient


KEYS = {"ANTHROPIC_API_KEY": "sk-ant-from-secret", "OPENAI_API_KEY": "sk-from-secret"}
MISSING_ARN = f"arn:aws:secretsmanager:{REGION}:123456789012:secret:certiq/none-AbCdEf"


@pytest.fixture
def secrets(aws: Aws, monkeypatch: pytest.MonkeyPatch) -> Iterator[SecretsManagerClient]:
    """Secrets Manager under moto; no key in the environment; the per-process cache emptied."""
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    secret_keys.cache_clear()
    yield boto3.client("secretsmanager", region_name=REGION)
    secret_keys.cache_clear()


def keyed(server: ProviderServer, secret_arn: str) -> LlmSettings:
    return llm_settings(server, api_keys_secret_arn=secret_arn)


def sent_key(server: ProviderServer, position: int) -> str:
    headers = server.requests[position].headers
    return headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")


def test_clients_send_the_keys_read_once_from_the_secret(
    secrets: SecretsManagerClient, provider_server: ProviderServer
) -> None:
    # GIVEN the keys in a secret (none in the environment) and a fake of both APIs
    arn = secrets.create_secret(Name="certiq/model-keys", SecretString=json.dumps(KEYS))["ARN"]
    provider_server.script = [
        Reply(200, anthropic_message([anthropic_text("hi")])),
        Reply(200, openai_completion("hi")),
        Reply(200, openai_completion("again")),
    ]
    settings = keyed(provider_server, arn)

    # WHEN each client asks
    with provider_errors("anthropic", "draft"):
        anthropic_client(settings).messages.create(
            model=settings.anthropic_model,
            max_tokens=8,
            messages=[{"role": "user", "content": "hello"}],
        )
    with provider_errors("openai", "draft"):
        openai_client(settings).chat.completions.create(
            model=settings.openai_model, messages=[{"role": "user", "content": "hello"}]
        )

    # THEN each request carried its provider's key from the secret
    assert sent_key(provider_server, 0) == KEYS["ANTHROPIC_API_KEY"]
    assert sent_key(provider_server, 1) == KEYS["OPENAI_API_KEY"]

    # AND the secret was read once: a new client still has the key after the secret is gone
    secrets.delete_secret(SecretId=arn, ForceDeleteWithoutRecovery=True)
    openai_client(settings).chat.completions.create(
        model=settings.openai_model, messages=[{"role": "user", "content": "hello"}]
    )
    assert sent_key(provider_server, 2) == KEYS["OPENAI_API_KEY"]


def test_building_a_client_reads_no_secret_until_it_is_used(
    secrets: SecretsManagerClient, provider_server: ProviderServer
) -> None:
    # GIVEN a secret ARN that does not exist (as for a function not allowed to read it)
    settings = keyed(provider_server, MISSING_ARN)

    # WHEN the answer chain is built (every function builds it) THEN nothing fails yet
    chain_settings = Settings(llm=settings, answer={"providers": ["anthropic", "extractive"]})
    chain = build_chat_model(chain_settings)
    client = anthropic_client(settings)

    # AND the first use says the secret cannot be read, naming it and the setting
    with pytest.raises(ConfigurationError, match="ResourceNotFoundException") as raised:
        client.messages.create(
            model="m", max_tokens=8, messages=[{"role": "user", "content": "hello"}]
        )
    assert MISSING_ARN in str(raised.value)
    assert "CERTIQ_LLM__API_KEYS_SECRET_ARN" in str(raised.value)

    # AND the chain records that failure and lets the offline answerer answer
    draft = chain.draft(
        "how long are backups kept?",
        make_evidence(make_chunk("Backups are kept for 30 days.")),
    )
    assert [failure.error for failure in draft.failures] == ["ConfigurationError"]
    assert "ResourceNotFoundException" in draft.failures[0].message
    assert provider_server.requests == []


@pytest.mark.parametrize(
    ("secret_string", "message"),
    [
        (json.dumps({"ANTHROPIC_API_KEY": "sk-ant"}), "needs OPENAI_API_KEY in the secret"),
        ("sk-plain-text", "is not JSON"),
        (json.dumps(["sk-1"]), "must be a JSON object of strings"),
        (json.dumps({"OPENAI_API_KEY": ""}), "needs OPENAI_API_KEY in the secret"),
    ],
)
def test_a_secret_without_a_usable_key_is_a_configuration_error(
    secrets: SecretsManagerClient,
    provider_server: ProviderServer,
    secret_string: str,
    message: str,
) -> None:
    # GIVEN a secret that does not hold the openai key as a JSON string
    arn = secrets.create_secret(Name="certiq/model-keys", SecretString=secret_string)["ARN"]

    # WHEN the openai client is first used THEN the error says what the secret must hold
    with pytest.raises(ConfigurationError, match=message):
        openai_client(keyed(provider_server, arn)).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hello"}]
        )
    assert provider_server.requests == []


def openai_embeddings(request: Recorded) -> Reply:
    """POST /v1/embeddings in the API's shape: one float vector per input, with its index."""
    texts = request.body["input"]
    return Reply(
        200,
        {
            "object": "list",
            "data": [
                {"object": "embedding", "index": i, "embedding": [1.0] + [0.0] * 1535}
                for i in range(len(texts))
            ],
            "model": request.body["model"],
            "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)},
        },
    )


def test_the_openai_embedder_sends_the_key_from_the_secret(
    secrets: SecretsManagerClient, provider_server: ProviderServer
) -> None:
    # GIVEN the keys in a secret (none in the environment) and OpenAI embeddings configured
    arn = secrets.create_secret(Name="certiq/model-keys", SecretString=json.dumps(KEYS))["ARN"]
    provider_server.responder = openai_embeddings
    settings = Settings(
        llm=keyed(provider_server, arn), embedding=EmbeddingSettings(provider="openai")
    )

    # WHEN the embedder bootstrap builds embeds two texts
    embedder = build_embedder(settings)
    assert embedder is not None
    vectors = embedder.embed(["backups are kept for 30 days", "logs for 13 months"])

    # THEN the request went to the embeddings endpoint with the secret's OpenAI key
    assert vectors.shape == (2, 1536)
    assert provider_server.paths() == ["/v1/embeddings"]
    assert sent_key(provider_server, 0) == KEYS["OPENAI_API_KEY"]


def test_the_openai_embedder_reads_no_secret_until_it_embeds(
    secrets: SecretsManagerClient, provider_server: ProviderServer
) -> None:
    # GIVEN a secret ARN that does not exist (a function not allowed to read it)
    settings = Settings(
        llm=keyed(provider_server, MISSING_ARN), embedding=EmbeddingSettings(provider="openai")
    )

    # WHEN the embedder is built THEN nothing fails yet
    embedder = build_embedder(settings)
    assert embedder is not None

    # AND the first embed says the secret cannot be read, naming it, and sends nothing
    with pytest.raises(ConfigurationError, match="ResourceNotFoundException") as raised:
        embedder.embed(["backups"])
    assert MISSING_ARN in str(raised.value)
    assert provider_server.requests == []


def test_a_value_that_is_not_a_secret_arn_is_refused_by_the_settings() -> None:
    # GIVEN a secret's name instead of its ARN WHEN settings are read THEN they are refused
    with pytest.raises(ValidationError, match="api_keys_secret_arn"):
        LlmSettings(api_keys_secret_arn="certiq/model-keys")


def test_where_the_keys_are_kept_does_not_change_the_config_hash() -> None:
    # GIVEN the same settings with and without a keys' secret
    # WHEN hashed THEN the certificates' config hash is the same
    keyed_settings = Settings(llm=LlmSettings(api_keys_secret_arn=MISSING_ARN))
    assert keyed_settings.config_hash() == Settings().config_hash()
