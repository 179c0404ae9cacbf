"""Images become XObjects: JPEG bytes kept as they are, transparency as a soft mask, grey stays grey."""
import zlib

from PIL import Image

from pnpgen.press.image_objects import image_objects


def numbers():
    count = iter(range(1, 100))
    return lambda: next(count)


def test_png_with_alpha_gets_a_soft_mask_with_its_alpha(tmp_path):
    path = tmp_path / "a.png"
    image = Image.new("RGBA", (4, 2), (255, 0, 0, 255))
    image.putpixel((0, 0), (0, 0, 255, 0))
    image.save(path)
    (number, body), (mask, mask_body) = image_objects(str(path), numbers())
    assert b"/SMask %d 0 R" % mask in body and b"/DeviceRGB" in body and b"/Width 4 /Height 2" in body
    assert zlib.decompress(stream_data(mask_body))[:2] == bytes([0, 255])
    assert zlib.decompress(stream_data(body))[:6] == bytes([0, 0, 255, 255, 0, 0])


def test_opaque_png_has_no_mask_and_grey_stays_grey(tmp_path):
    Image.new("RGBA", (3, 3), (1, 2, 3, 255)).save(tmp_path / "opaque.png")
    Image.new("L", (3, 3), 128).save(tmp_path / "grey.png")
    assert len(image_objects(str(tmp_path / "opaque.png"), numbers())) == 1
    [(_, body)] = image_objects(str(tmp_path / "grey.png"), numbers())
    assert b"/DeviceGray" in body and zlib.decompress(stream_data(body)) == bytes([128] * 9)


def test_jpeg_bytes_are_embedded_unchanged(tmp_path):
    path = tmp_path / "photo.jpg"
    Image.new("RGB", (8, 8), (10, 200, 30)).save(path, quality=90)
    [(_, body)] = image_objects(str(path), numbers())
    assert b"/DCTDecode" in body and stream_data(body) == path.read_bytes()


def stream_data(body: bytes) -> bytes:
    start = body.index(b"stream\n") + len(b"stream\n")
    return body[start:body.rindex(b"\nendstream")]
