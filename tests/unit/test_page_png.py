"""The PNG encoder behind page images: what it writes, any PNG reader reads back exactly."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from certiq.api.pages import PNG_SIGNATURE, encode_png


def test_an_rgb_array_round_trips_through_png() -> None:
    # GIVEN pixels with every channel varying
    rng = np.random.default_rng(7)
    pixels = rng.integers(0, 256, size=(37, 53, 3), dtype=np.uint8)

    # WHEN they are encoded
    data = encode_png(pixels)

    # THEN Pillow decodes the same size, mode and pixels
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert (image.width, image.height, image.mode) == (53, 37, "RGB")
    assert np.array_equal(np.asarray(image), pixels)


def test_anything_but_height_width_rgb_is_refused() -> None:
    with pytest.raises(ValueError, match="RGB"):
        encode_png(np.zeros((4, 4, 4), dtype=np.uint8))
