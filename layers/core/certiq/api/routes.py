"""The HTTPS API: one resolver for API Gateway (functions/api) and `certiq serve` alike, made of
one Router per resource (certiq.api.questions, .documents, .certificates, .site) and the error
handlers of certiq.api.responses. Every response carries X-Correlation-Id, the request id the
function's logs carry too.

Bodies are validated against the pydantic contracts; every error answers with an ApiError body:
malformed JSON 400, a body breaking its contract 422 naming the field, unknown ids 404, a
conflict 409, a deleted document's page 410, an oversized body 413. The web page's files are
served from `/`.

API Gateway is expected to pass every body as binary (BinaryMediaTypes "*/*"): uploads arrive
base64-encoded, and page images go back base64-encoded with isBase64Encoded, as `certiq serve`
does locally.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, CORSConfig

from certiq.api.certificates import certificates_router
from certiq.api.questions import questions_router
from certiq.api.responses import Resolver, register_error_handlers
from certiq.api.site import API_TITLE, site_router
from certiq.api.static import load_static
from certiq.config import Settings
from certiq.deps import Deps
from certiq.ports import Orchestrator, UploadSigner
from certiq.web import STATIC_DIR

if TYPE_CHECKING:
    from certiq.api.intake import DocumentIntake


def page_cache_dir(settings: Settings) -> Path:
    if settings.api.page_cache_dir is not None:
        return settings.api.page_cache_dir
    if settings.runtime == "aws":  # /tmp is the only writable place in Lambda
        return Path(tempfile.gettempdir()) / "certiq-page-cache"
    return settings.home / "page-cache"


def cors_config(settings: Settings) -> CORSConfig | None:
    """Which other origin's pages may read the responses (api.cors_allow_origin); None: none.

    Powertools answers the preflight (OPTIONS) and adds Access-Control-Allow-Origin to a
    response only when the request's Origin is the allowed one (or it is "*"). The headers are
    those API Gateway's own preflight allows (template.yaml CertiqApi Cors).
    """
    origin = settings.api.cors_allow_origin
    if not origin:
        return None
    return CORSConfig(
        allow_origin=origin,
        allow_headers=["Idempotency-Key"],
        expose_headers=["ETag"],
        max_age=600,
    )


def create_app(
    deps: Deps,
    orchestrator: Orchestrator,
    signer: UploadSigner | None = None,
    intake: DocumentIntake | None = None,
) -> APIGatewayRestResolver:
    """The resolver; ``signer`` offers presigned uploads (AWS), without it uploads are ingested
    by this process (``intake``, when given, is the one to use: tests wait on it)."""
    # Imported here, when the resolver is built: uploads and page images load pypdfium2 and
    # numpy, which the API function's cold start (module import) should not pay for.
    from certiq.api.documents import documents_router, page_images_router
    from certiq.api.intake import DocumentIntake
    from certiq.api.pages import PageImages

    settings = deps.settings
    app = Resolver(enable_validation=True, cors=cors_config(settings))
    register_error_handlers(app)
    pages = PageImages(deps.blobs, page_cache_dir(settings), settings.api.page_dpi)
    static = load_static(settings.api.static_dir or STATIC_DIR)
    app.include_router(questions_router(deps, orchestrator))
    app.include_router(documents_router(deps, intake or DocumentIntake(deps, signer)))
    app.include_router(page_images_router(deps, pages))
    app.include_router(certificates_router(deps))
    app.include_router(
        site_router(static, lambda: app.get_openapi_json_schema(title=API_TITLE, version="1"))
    )
    return app
