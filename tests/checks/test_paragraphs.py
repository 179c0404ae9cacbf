"""A rulebook paragraph carrying sentences of two paragraphs of the document is a warning at the rulebook's line,
naming where the document has each; the bundled rulebooks keep the documents' paragraphs apart."""
import pnpgen

from slips import edit

CHECK = "rulebook paragraph joins paragraphs of the document"


def joined(project, game):
    return [f for f in pnpgen.check(project, game) if f.check == CHECK]


def test_the_bundled_rulebooks_join_no_paragraphs(project):
    assert [f.line() for f in pnpgen.check(project) if f.check == CHECK] == []


def test_two_paragraphs_of_the_document_joined_in_the_rulebook_are_reported(project):
    edit(project, "rules/three-times-undress.md", "山が尽きると局が終了します。\n\nこれを繰り返し",
         "山が尽きると局が終了します。これを繰り返し")
    [finding] = joined(project, "three-times-undress")
    assert (finding.status, str(finding.location)) == ("warn", "rules/three-times-undress.md:62:1")
    assert finding.detail == (
        "「局の間にいずれかのプレイヤーがあがる（ツモ／ロン）か、あるいは誰もあがらずに山が尽きると局が終了します。」 "
        "(documents/001_e1dff157cadda2dc.txt:1:2667) and 「これを繰り返し、いずれかのプレイヤーが３回脱衣するとゲームが"
        "終了します。」 (1:2721) are paragraphs apart in the document; expected a blank line between them in the rulebook")

