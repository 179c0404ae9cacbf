"""Terms the documents and rulebooks use: one the document never defines is a warning where the document first uses it,
unless the data declares it; one the document defines, or the data declares with its defining phrase, passes."""
import pnpgen

from slips import append, edit, failed

TTU = "games/three-times-undress.yaml"
DOCUMENT = "documents/001_e1dff157cadda2dc.txt"
SIDEWAYS = ("      - term: 横倒し\n        undefined: 【河】のカードがいつ横倒しになるかが書かれていない。横倒しにする規則は作らず、"
            "ルールブックは資料の２か所をそのまま載せた（特殊効果のテキストが決まれば、そこで定める）。\n")


def undefined_terms(project, game="three-times-undress"):
    return [f for f in pnpgen.check(project, game) if f.check.startswith("undefined term") and f.status == "warn"]


def undefined(project, game="three-times-undress"):
    return [(f.check, f.location.file, f.location.line, f.location.col) for f in undefined_terms(project, game)]


def test_the_bundled_terms_are_defined_or_declared(project):
    findings = pnpgen.check(project)
    assert [f.line() for f in findings if f.check.startswith(("undefined term", "term "))
            and f.status == "fail"] == []
    declared = {f.check for f in findings if f.check.startswith("term ") and f.status == "warn"}
    assert declared == {"term アミーゴ選択: undefined in the document", "term ＶＰ: undefined in the document",
                        "term 同時撃ち: undefined in the document", "term 横倒し: undefined in the document",
                        "term 磐座: undefined in the document", "term 縦置き: undefined in the document"}


def test_a_state_the_document_never_puts_a_card_in_is_undefined_without_its_entry(project):
    edit(project, TTU, SIDEWAYS, "")
    [finding] = undefined_terms(project)
    assert not [f for f in failed(project, "three-times-undress") if f.check.startswith("undefined term")]
    assert (finding.check, str(finding.location)) == ("undefined term 横倒し", f"{DOCUMENT}:1:3046")
    assert finding.found == "used only as a state a piece is in, never in a rule that puts one so"
    assert "rules/three-times-undress.md:72:27" in finding.detail


def test_a_state_the_document_puts_a_card_in_is_defined(project):
    edit(project, TTU, SIDEWAYS, "")
    edit(project, DOCUMENT, "横倒しのカードは省く）", "横倒しのカードは省く。ロンされたカードは横倒しにしてください）")
    assert undefined(project) == []


def test_a_term_the_rulebook_sets_apart_must_be_defined_by_the_document(project):
    line = append(project, "rules/three-times-undress.md", "手番を終えたら**鳴き**を宣言できます。**ツモ**と同じく【河】を使います。")
    assert undefined(project) == [("undefined term 鳴き", "rules/three-times-undress.md", line, 10)]


def test_a_term_declared_with_its_defining_phrase_passes_and_a_phrase_that_does_not_name_it_fails(project):
    edit(project, TTU, "        quote: 手番を繰り返し、山が尽きると流局します。\n", "        quote: 手番を繰り返します。\n")
    assert [(f.check, f.found) for f in failed(project, "three-times-undress")] == [
        ("quote not in the document", "「手番を繰り返し」")]
    edit(project, TTU, "        quote: 手番を繰り返します。\n", "        quote: 起家を１つ左隣へ移して、新しい局を開始してください。\n")
    assert [(f.check, f.found) for f in failed(project, "three-times-undress")] == [
        ("term 流局: defined as the document states", "a phrase that does not name it")]


def test_a_term_the_heuristic_cannot_see_defined_needs_its_quote(project):
    edit(project, TTU, "      - term: 流局\n        quote: 手番を繰り返し、山が尽きると流局します。\n", "")
    assert undefined(project) == [("undefined term 流局", DOCUMENT, 1, 727)]
