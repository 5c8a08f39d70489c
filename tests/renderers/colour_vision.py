"""How a colour-blind eye sees a colour or a picture, for the renderer tests: Machado, Oliveira
and Fernandes (2009) at severity 1.0, applied on linear RGB."""

from __future__ import annotations

from PIL import Image

Matrix = tuple[tuple[float, float, float], ...]

DEUTERANOPIA: Matrix = ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969))
PROTANOPIA: Matrix = ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052))
DEFICIENCIES = {"deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}


def _linear(v: int) -> float:
    a = v / 255
    return a / 12.92 if a <= 0.04045 else ((a + 0.055) / 1.055) ** 2.4


def _encoded(v: float) -> int:
    a = min(1.0, max(0.0, v))
    return round(255 * (a * 12.92 if a <= 0.0031308 else 1.055 * a ** (1 / 2.4) - 0.055))


TO_LINEAR = [round(_linear(v) * 255) for v in range(256)] * 3
TO_SRGB = [_encoded(v / 255) for v in range(256)] * 3


def seen_colour(rgb: tuple[int, ...], matrix: Matrix) -> tuple[int, int, int]:
    linear = [_linear(c) for c in rgb[:3]]
    r, g, b = (_encoded(sum(m * c for m, c in zip(row, linear, strict=True))) for row in matrix)
    return r, g, b


def seen_picture(image: Image.Image, matrix: Matrix) -> Image.Image:
    """The whole picture as that eye sees it (8-bit linear light, so a little coarser)."""
    linear = image.convert("RGB").point(TO_LINEAR)
    flat = tuple(c for row in matrix for c in (*row, 0))
    return linear.convert("RGB", flat).point(TO_SRGB)
