"""Scanned copies of PDFs, made here: each page rendered, turned a little, speckled with noise
and laid back into a PDF as an image with no text layer, the way an office scanner leaves it.

Tests and `make bench` read these with OCR and compare the words with the original's text
layer (certiq.ingestion.text_quality.word_agreement): a measurement of OCR on pages whose text
is known exactly.
"""

from __future__ import annotations

import io

import numpy as np
import pypdfium2 as pdfium


def scanned_copy(
    data: bytes, *, dpi: int = 200, skew_degrees: float = 0.8, noise: float = 10.0, seed: int = 0
) -> bytes:
    """The PDF `data` as an image-only scan: every page an 8-bit grayscale image of itself."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    source = pdfium.PdfDocument(data)
    scan = pdfium.PdfDocument.new()
    try:
        for index in range(len(source)):
            page = source[index]
            width, height = page.get_size()
            image = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            image = image.rotate(skew_degrees, resample=Image.Resampling.BICUBIC, fillcolor=255)
            pixels = np.asarray(image, dtype=np.float64) + rng.normal(0.0, noise, image.size[::-1])
            image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode="L")
            jpeg = io.BytesIO()
            image.save(jpeg, format="JPEG", quality=85)
            jpeg.seek(0)
            target = scan.new_page(width, height)
            picture = pdfium.PdfImage.new(scan)
            picture.load_jpeg(jpeg, inline=True)
            picture.set_matrix(pdfium.PdfMatrix().scale(width, height))
            target.insert_obj(picture)
            target.gen_content()
        out = io.BytesIO()
        scan.save(out)
        return out.getvalue()
    finally:
        scan.close()
        source.close()
