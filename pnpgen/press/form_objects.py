"""Turn a face's form into the head of its PDF object: its resources (fonts, opacities and soft masks, images,
groups, shadings) and, for one of its transparency groups, the group's."""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

from ..faces.form import FaceForm

# A group is shown in the user space of where the SVG has it, which the face's box need not hold: its own box
# is all a face could reach (the outer form's box clips it to the face all the same).
GROUP_BOX = b"-100000 -100000 100000 100000"

def form_head(form: FaceForm, numbers: list[bytes], group: int | None = None, space: bytes = b"/DeviceRGB") -> bytes:
    """A form's object up to its content; numbers: its fonts', images', groups' and content's, written.
    group: the object of its transparency group of that index instead, which shows only the groups before it,
    blended in space."""
    fonts = min(len(form.resolved_fonts), len(form.glyphs))
    groups = numbers[fonts + len(form.resolved_images):]  # written already: a group's mask is an earlier group
    states = b" ".join(b"/G%d << /SMask << /S /Luminosity /G %s 0 R >> >>" % (i, groups[value]) if key == "SMask"
                       else b"/G%d << /%s %s >>" % (i, key.encode(), fp_str(value).encode())
                       for i, (key, value) in enumerate(form.states)
                       if key != "SMask" or value < (len(form.groups) if group is None else group))
    objects = [b"/I%d \0 0 R" % i for i in range(len(form.resolved_images))] + [
        b"/X%d \0 0 R" % i for i in range(len(form.groups) if group is None else group)]
    box = GROUP_BOX if group is not None else b"0 0 " + fp_str(form.width, form.height).encode()
    text = (b"<< /Type /XObject /Subtype /Form /FormType 1 /BBox [ %s ] /Matrix [ 1 0 0 1 0 0 ]%s /Resources << "
            b"/ProcSet [ /PDF /Text /ImageB /ImageC /ImageI ]" % (
                box, b" /Group << /S /Transparency /CS %s >>" % space if group is not None else b"")
            + (b" /Font << %s >>" % b" ".join(b"/F%d \0 0 R" % i for i in range(fonts)) if fonts else b"")
            + (b" /ExtGState << %s >>" % states if states else b"")
            + (b" /XObject << %s >>" % b" ".join(objects) if objects else b"")
            + (b" /Shading << %s >>" % b" ".join(b"/Sh%d %s" % (i, shading_dictionary(record))
                                                 for i, record in enumerate(form.shadings)) if form.shadings else b"")
            + b" >> /Filter /FlateDecode /Length \0 >>\nstream\n")
    pieces = text.split(b"\0")
    return b"".join(piece for pair in zip(pieces, numbers) for piece in pair) + pieces[-1]


def shading_dictionary(record: list) -> bytes:
    """An axial (2) or radial (3) shading in RGB (or CMYK, by its stops) from its stops, extended past both ends
    (SVG's pad)."""
    kind, coords, stops = record
    stops = ([[0, *stops[0][1:]]] if stops[0][0] > 0 else []) + stops + ([[1, *stops[-1][1:]]] if stops[-1][0] < 1 else [])
    functions = [b"<< /FunctionType 2 /Domain [ 0 1 ] /C0 [ %s ] /C1 [ %s ] /N 1 >>" % (
        fp_str(*a[1:]).encode(), fp_str(*b[1:]).encode()) for a, b in zip(stops, stops[1:])]
    function = functions[0] if len(functions) == 1 else (
        b"<< /FunctionType 3 /Domain [ 0 1 ] /Functions [ %s ] /Bounds [ %s ] /Encode [ %s ] >>" % (
            b" ".join(functions), fp_str(*[s[0] for s in stops[1:-1]]).encode(), b" ".join([b"0 1"] * len(functions))))
    space = b"/DeviceCMYK" if len(stops[0]) == 5 else b"/DeviceRGB"
    return b"<< /ShadingType %d /ColorSpace %s /Coords [ %s ] /Function %s /Extend [ true true ] >>" % (
        kind, space, fp_str(*coords).encode(), function)
