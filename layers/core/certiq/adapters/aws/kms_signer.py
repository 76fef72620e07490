"""Signing with a KMS HMAC key (KeySpec HMAC_256, KeyUsage GENERATE_VERIFY_MAC).

The key never leaves KMS: GenerateMac signs, VerifyMac checks (KMS compares in constant time).
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Final

from botocore.exceptions import ClientError

from certiq.adapters.aws._errors import error_code, transient_errors

if TYPE_CHECKING:
    from mypy_boto3_kms import KMSClient

MAC_ALGORITHM: Final = "HMAC_SHA_256"


class KmsSigner:
    """Implements certiq.ports.Signer with the KMS key ``key_id`` (id, ARN or alias)."""

    def __init__(self, client: KMSClient, key_id: str) -> None:
        self._kms = client
        self._key_id = key_id

    @property
    def key_id(self) -> str:
        return "kms:" + self._key_id

    def sign(self, message: bytes) -> str:
        with transient_errors("KMS GenerateMac"):
            response = self._kms.generate_mac(
                KeyId=self._key_id, Message=message, MacAlgorithm=MAC_ALGORITHM
            )
        return base64.b64encode(response["Mac"]).decode("ascii")

    def verify(self, message: bytes, signature: str) -> bool:
        try:
            mac = base64.b64decode(signature.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError):
            return False
        if not mac:
            return False
        with transient_errors("KMS VerifyMac"):
            try:
                response = self._kms.verify_mac(
                    KeyId=self._key_id, Message=message, MacAlgorithm=MAC_ALGORITHM, Mac=mac
                )
            except ClientError as error:
                if error_code(error) == "KMSInvalidMacException":
                    return False
                raise
        return bool(response["MacValid"])
