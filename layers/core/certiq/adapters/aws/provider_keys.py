"""Model providers' API keys from one AWS Secrets Manager secret (llm.api_keys_secret_arn).

The secret's string is a JSON object such as {"ANTHROPIC_API_KEY": "...", "OPENAI_API_KEY": "..."}.
It is read once per process, on the first model call, and handed to the SDK client's constructor;
the environment is never changed. Throttling and 5xx (after botocore's retries) are a
TransientError; a missing, unreadable or malformed secret is a ConfigurationError naming the fix.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Final

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors
from certiq.errors import ConfigurationError

# What each provider's key is called inside the secret: the SDKs' own variable names.
KEY_NAMES: Final = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


def provider_api_key(secret_arn: str, provider: str) -> str:
    """The provider's key from the secret; ConfigurationError when the secret lacks it."""
    name = KEY_NAMES[provider]
    key = secret_keys(secret_arn).get(name, "")
    if not key:
        raise ConfigurationError(
            f"the {provider} provider needs {name} in the secret {secret_arn} "
            f"(CERTIQ_LLM__API_KEYS_SECRET_ARN), which has only: "
            f"{', '.join(sorted(secret_keys(secret_arn))) or 'no keys'}"
        )
    return key


@cache
def secret_keys(secret_arn: str) -> dict[str, str]:
    """The secret's JSON object, read once per process (failures are not cached)."""
    import boto3

    region = secret_region(secret_arn)
    client = boto3.client("secretsmanager", region_name=region)
    with transient_errors("Secrets Manager GetSecretValue"):
        try:
            value = client.get_secret_value(SecretId=secret_arn)
        except ClientError as error:
            code = error_code(error)
            if code in {
                "ResourceNotFoundException",
                "AccessDeniedException",
                "AccessDenied",
                "DecryptionFailure",
                "InvalidRequestException",
                "InvalidParameterException",
            }:
                raise ConfigurationError(
                    f"cannot read the provider keys' secret {secret_arn} "
                    f"(CERTIQ_LLM__API_KEYS_SECRET_ARN): {code}: {error}"
                ) from error
            raise
    text = value.get("SecretString")
    if text is None:
        raise ConfigurationError(
            f"the secret {secret_arn} holds binary data; store the keys as a JSON string"
        )
    try:
        keys = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigurationError(
            f"the secret {secret_arn} is not JSON: store "
            '{"ANTHROPIC_API_KEY": "...", "OPENAI_API_KEY": "..."}'
        ) from error
    if not isinstance(keys, dict) or not all(
        isinstance(name, str) and isinstance(key, str) for name, key in keys.items()
    ):
        raise ConfigurationError(
            f"the secret {secret_arn} must be a JSON object of strings, such as "
            '{"ANTHROPIC_API_KEY": "...", "OPENAI_API_KEY": "..."}'
        )
    return keys


def secret_region(secret_arn: str) -> str:
    """The region in a secret's ARN (arn:<partition>:secretsmanager:<region>:...)."""
    parts = secret_arn.split(":")
    if len(parts) < 7 or parts[2] != "secretsmanager" or parts[5] != "secret" or not parts[3]:
        raise ConfigurationError(
            f"CERTIQ_LLM__API_KEYS_SECRET_ARN is not a Secrets Manager secret ARN: {secret_arn!r}"
        )
    return parts[3]
