"""Turn the writer's RGB operators, forms, images and document entries into a PDF/X file's: CMYK through a press
profile, crop marks in registration colour, the output intent and the PDF/X identification (Info and XMP)."""
from __future__ import annotations

import dataclasses
import functools
import re
import zlib

from reportlab.lib.rl_accel import fp_str

from ..faces.cmyk import REGISTRY, CmykConverter
from ..faces.form import FaceForm
from .pdf_file import PdfFile, stream, text_string

VERSIONS = ("1a", "4")
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)"
RGB_OPERATOR = re.compile(rf"(?<!\S)({NUMBER})\s+({NUMBER})\s+({NUMBER})\s+(rg|RG)(?!\S)")
# The tint of /All marks every separation alike, so a crop mark shows on every plate the printer aligns
ALL_SEPARATION = (b"[ /Separation /All /DeviceCMYK << /FunctionType 2 /Domain [ 0 1 ] /C0 [ 0 0 0 0 ] "
                  b"/C1 [ 1 1 1 1 ] /N 1 >> ]")
XMP_DATE = "2000-01-01T00:00:00+00:00"  # pdf_file.EPOCH, the Info dictionary's dates, as XMP writes them


@dataclasses.dataclass
class PdfX:
    """What makes the writer's document a PDF/X of version (1a: PDF/X-1a:2001, CMYK only and opaque; 4:
    PDF/X-4, transparency allowed) for the press converter separates for."""

    version: str
    converter: CmykConverter

    @functools.cached_property
    def profile_stream(self) -> bytes:
        """The press profile's stream object, deflated once for every document this PdfX writes."""
        return stream(b"/N 4", self.converter.profile_bytes)

    @property
    def header(self) -> bytes:
        """X-1a:2001 is a PDF 1.3 file; X-4 allows transparency, a PDF 1.4 feature."""
        return b"%%PDF-1.%d\n%%\x93\x8c\x8b\x9e pnpgen\n" % (3 if self.version == "1a" else 4)

    def recolour(self, code: str, inks: dict[str, tuple] | None = None) -> str:
        """Operators with every RGB fill and stroke colour (rg, RG) set as CMYK (k, K): the exact inks where
        the template gave them (inks: operands -> CMYK), else separated through the profile."""
        inks = inks or {}

        def replace(match: re.Match) -> str:
            operands = " ".join(match.group(1, 2, 3))
            cmyk = inks.get(operands)
            if cmyk is None:
                cmyk = self.converter.to_cmyk(tuple(float(v) for v in match.group(1, 2, 3)))
            return f"{fp_str(*cmyk)} {'k' if match.group(4) == 'rg' else 'K'}"

        return RGB_OPERATOR.sub(replace, code)

    def recolour_form(self, form: FaceForm) -> FaceForm:
        """The form (parsed) with its content, groups and shadings in CMYK; it shares no shape with others."""
        inks = {ink[0]: tuple(ink[1:]) for ink in form.inks}
        *groups, own = [zlib.compress(self.recolour(zlib.decompress(piece).decode("latin-1"), inks).encode("latin-1"))
                        for piece in form.streams()]
        shadings = tuple([kind, coords, [[stop[0], *self.converter.to_cmyk(tuple(stop[1:]))] for stop in stops]]
                         for kind, coords, stops in form.shadings)
        return dataclasses.replace(form, content=own + b"".join(groups), groups=tuple(len(g) for g in groups),
                                   shadings=shadings, shape=None, record=None)

    def register(self, code: str) -> str:
        """Marks' operators with their colours in registration colour: black as every plate's full tint, white
        (the halo under a mark) as none, a grey as its share."""
        def replace(match: re.Match) -> str:
            tint = fp_str(round(1 - sum(float(v) for v in match.group(1, 2, 3)) / 3, 4))
            return f"/Reg cs {tint} scn" if match.group(4) == "rg" else f"/Reg CS {tint} SCN"

        return RGB_OPERATOR.sub(replace, code)

    def info_entries(self) -> bytes:
        if self.version == "1a":
            return b" /GTS_PDFXConformance (PDF/X-1a:2001) /GTS_PDFXVersion (PDF/X-1:2001)"
        return b" /GTS_PDFXVersion (PDF/X-4)"

    def catalog_entries(self, file: PdfFile, title: str, subject: str) -> bytes:
        """The catalog's OutputIntents (the press's characterisation and profile) and, for X-4, its XMP."""
        press = self.converter.press
        profile = file.add(self.profile_stream)
        intent = file.add(b"<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier (%s) /OutputCondition %s "
                          b"/RegistryName (%s) /Info %s /DestOutputProfile %d 0 R >>" % (
                              press.identifier.encode(), text_string(press.condition), REGISTRY.encode(),
                              text_string(press.condition), profile))
        entries = b" /OutputIntents [ %d 0 R ]" % intent
        if self.version == "4":
            file.flush()
            digest = file.hasher.copy().hexdigest()  # what is written so far: the pages, so the document
            xmp = xmp_packet(title, subject, "uuid:%s-%s-%s-%s-%s" % (
                digest[:8], digest[8:12], digest[12:16], digest[16:20], digest[20:32]))
            entries += b" /Metadata %d 0 R" % file.add(stream(b"/Type /Metadata /Subtype /XML", xmp, compress=False))
        return entries


def xmp_packet(title: str, subject: str, document_id: str) -> bytes:
    """The XMP metadata PDF/X-4 asks for, saying what the Info dictionary says."""
    escape = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})
    title, subject = title.translate(escape), subject.translate(escape)
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>pnpgen</rdf:li></rdf:Seq></dc:creator>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{subject}</rdf:li></rdf:Alt></dc:description>
<xmp:CreatorTool>pnpgen</xmp:CreatorTool>
<xmp:CreateDate>{XMP_DATE}</xmp:CreateDate>
<xmp:ModifyDate>{XMP_DATE}</xmp:ModifyDate>
<xmp:MetadataDate>{XMP_DATE}</xmp:MetadataDate>
<pdf:Producer>pnpgen</pdf:Producer>
<pdf:Trapped>False</pdf:Trapped>
<xmpMM:DocumentID>{document_id}</xmpMM:DocumentID>
<xmpMM:InstanceID>{document_id}</xmpMM:InstanceID>
<xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="r"?>""".encode("utf-8")
