"""Turn kana (hiragana and katakana) into Hepburn romaji, so a Japanese name can give a readable ASCII id."""
from __future__ import annotations

_ROWS = {  # the katakana syllabary; hiragana is mapped onto it first
    "ア": "a", "イ": "i", "ウ": "u", "エ": "e", "オ": "o", "カ": "ka", "キ": "ki", "ク": "ku", "ケ": "ke", "コ": "ko",
    "サ": "sa", "シ": "shi", "ス": "su", "セ": "se", "ソ": "so", "タ": "ta", "チ": "chi", "ツ": "tsu", "テ": "te",
    "ト": "to", "ナ": "na", "ニ": "ni", "ヌ": "nu", "ネ": "ne", "ノ": "no", "ハ": "ha", "ヒ": "hi", "フ": "fu",
    "ヘ": "he", "ホ": "ho", "マ": "ma", "ミ": "mi", "ム": "mu", "メ": "me", "モ": "mo", "ヤ": "ya", "ユ": "yu",
    "ヨ": "yo", "ラ": "ra", "リ": "ri", "ル": "ru", "レ": "re", "ロ": "ro", "ワ": "wa", "ヰ": "i", "ヱ": "e",
    "ヲ": "o", "ン": "n", "ガ": "ga", "ギ": "gi", "グ": "gu", "ゲ": "ge", "ゴ": "go", "ザ": "za", "ジ": "ji",
    "ズ": "zu", "ゼ": "ze", "ゾ": "zo", "ダ": "da", "ヂ": "ji", "ヅ": "zu", "デ": "de", "ド": "do", "バ": "ba",
    "ビ": "bi", "ブ": "bu", "ベ": "be", "ボ": "bo", "パ": "pa", "ピ": "pi", "プ": "pu", "ペ": "pe", "ポ": "po",
    "ヴ": "vu", "ァ": "a", "ィ": "i", "ゥ": "u", "ェ": "e", "ォ": "o", "ャ": "ya", "ュ": "yu", "ョ": "yo", "ヮ": "wa",
}
_SMALL_Y = {"ャ": "a", "ュ": "u", "ョ": "o"}
_SMALL_VOWEL = {"ァ": "a", "ィ": "i", "ゥ": "u", "ェ": "e", "ォ": "o"}


def romanize(text: str) -> str:
    """Kana in text as romaji (きょう → kyou, ゲーム → geemu, サッカー → sakkaa); other characters unchanged."""
    out: list[str] = []
    chars = "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text)  # hiragana as katakana
    double = False
    for char in chars:
        if char == "ッ":
            double = True
            continue
        if char == "ー":
            out.append(out[-1][-1] if out and out[-1][-1:] in "aeiou" else "")
            continue
        syllable = _ROWS.get(char)
        if syllable is None:
            out.append(char)
            double = False
            continue
        if char in _SMALL_Y and out and out[-1].endswith("i") and len(out[-1]) > 1:
            base = out.pop()[:-1]  # キ + ャ → kya, シ + ョ → sho
            syllable = base + ("" if base.endswith(("sh", "ch", "j")) else "y") + _SMALL_Y[char]
        elif char in _SMALL_VOWEL and out and len(out[-1]) > 1:
            syllable = out.pop()[:-1] + _SMALL_VOWEL[char]  # フ + ァ → fa, テ + ィ → ti
        if double:
            syllable = ("t" if syllable.startswith("ch") else syllable[0]) + syllable
            double = False
        out.append(syllable)
    return "".join(out)
