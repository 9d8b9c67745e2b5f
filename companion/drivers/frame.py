"""A 1-bit OLED frame as its bytes, with its controller pages when known and its image made only when asked.

The SSD1306 and SH1106 hold a frame in eight pages of 8 pixel rows; a frame drawn from rows that are whole pages
(:class:`~companion.face.draw.Painter`) knows each page's bytes from its rows' (worked out once per distinct row), so
that the paged drivers (:mod:`.display`) need not turn the whole image at every frame, and a page whose row did not
change is the very object sent before. luma's devices that want an image get one (:attr:`Frame.image`).
"""

from __future__ import annotations

from PIL import Image

PAGES_OF = 8  # pixel rows per controller page


def page_bytes(image: Image.Image, page: int) -> bytes:
    """The 128 bytes of one controller page: bit i of byte x is pixel (x, 8·page + i)."""
    strip = image.crop((0, page * PAGES_OF, image.width, (page + 1) * PAGES_OF))
    # Rotated clockwise, each pixel column becomes one byte with the top pixel in the low bit.
    return strip.transpose(Image.Transpose.ROTATE_270).tobytes()


def pages_bytes(image: Image.Image) -> list[bytes]:
    """Every page's :func:`page_bytes` at once: the whole frame turned once (a column of the frame is then one line of
    bytes, the bottom page's first), and each page every ``pages``-th byte of it: 8 times fewer crops and turns."""
    pages = image.height // PAGES_OF
    turned = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [turned[pages - 1 - page::pages] for page in range(pages)]


class Frame:
    """One frame: ``data`` its bytes as a "1" image's ``tobytes()`` (rows in order, 8 pixels a byte), ``pages`` its
    controller pages (:func:`pages_bytes`) when the painter knows them, and :attr:`image` made from ``data`` at the
    first asking (a paged driver never asks; luma's dummy device and the demo's recorder do)."""

    __slots__ = ("data", "pages", "size", "_image")

    def __init__(self, data: bytes, size: tuple[int, int], pages: tuple[bytes, ...] | None = None,
                 image: Image.Image | None = None) -> None:
        self.data, self.size, self.pages, self._image = data, size, pages, image

    @classmethod
    def of(cls, image: Image.Image) -> Frame:
        """An image as a frame (its pages worked out by the driver that wants them)."""
        return cls(image.tobytes(), image.size, None, image)

    @property
    def image(self) -> Image.Image:
        if self._image is None:
            self._image = Image.frombytes("1", self.size, self.data)
        return self._image
