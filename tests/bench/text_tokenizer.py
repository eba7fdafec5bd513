"""Skynnet's text tokenizer (rule 1, engine/data/text_vocabulary.h and .cpp) and vocabulary in
Python, for the PyTorch text peers: the same tokens, the same ids (0 padding, 1 unknown, then the
training tokens by frequency, ties by first appearance) and PRE-padding (the first L tokens kept,
the padding in front, docs/DESIGN of issue 26). Run it to check it against a few fixed examples:
    /usr/bin/python3 tests/bench/text_tokenizer.py"""

PADDING, UNKNOWN, FIRST_TOKEN = 0, 1, 2


def _space(c):
    o = ord(c)
    return (c == " " or 0x09 <= o <= 0x0D or o == 0xA0 or 0x2000 <= o <= 0x200B or o in (0x2028, 0x2029, 0x202F, 0x205F)
            or o in (0x3000, 0xFEFF))


def _non_ascii_punctuation(c):
    o = ord(c)
    if 0xA1 <= o <= 0xBF:
        return o not in (0xAA, 0xB5, 0xBA)  # ª µ º are letters
    return (o in (0xD7, 0xF7) or 0x2010 <= o <= 0x205E or 0x20A0 <= o <= 0x2BFF or 0x2E00 <= o <= 0x2E7F
            or 0x3001 <= o <= 0x303F or 0xFF01 <= o <= 0xFF0F or 0xFF1A <= o <= 0xFF20 or 0xFF3B <= o <= 0xFF40
            or 0xFF5B <= o <= 0xFF65 or 0x1F000 <= o <= 0x1FAFF)


def _letter(c):
    if ord(c) < 0x80:
        return "a" <= c <= "z" or "A" <= c <= "Z"
    return not _space(c) and not _non_ascii_punctuation(c)


def _digit(c):
    return "0" <= c <= "9"


def _lower(c):
    """The rule's lower-casing only (Python's str.lower() knows more scripts than the rule)."""
    o = ord(c)
    if 0x41 <= o <= 0x5A or (0xC0 <= o <= 0xDE and o != 0xD7):
        return chr(o + 32)
    if o == 0x178:
        return "\u00ff"
    if o == 0x130:
        return "i"
    even = 0x100 <= o <= 0x137 or 0x14A <= o <= 0x177
    odd = 0x139 <= o <= 0x148 or 0x179 <= o <= 0x17E
    if (even and o % 2 == 0) or (odd and o % 2 == 1):
        return chr(o + 1)
    if 0x391 <= o <= 0x3AB and o != 0x3A2:
        return chr(o + 32)
    if 0x410 <= o <= 0x42F:
        return chr(o + 32)
    if 0x400 <= o <= 0x40F:
        return chr(o + 80)
    return c


def tokenize(text):
    """Rule 1: lower-case; words are letter runs (an apostrophe ' or U+2019 between two letters
    stays, written '); numbers are digit runs with an optional decimal part; every other non-space
    character is a token of its own."""
    s = "".join(_lower(c) for c in text)
    tokens, i, n = [], 0, len(s)
    while i < n:
        c = s[i]
        if _space(c):
            i += 1
            continue
        start = i
        if _letter(c):
            word = []
            while i < n:
                if _letter(s[i]):
                    word.append(s[i])
                    i += 1
                elif s[i] in "'\u2019" and i + 1 < n and _letter(s[i + 1]):
                    word.append("'")
                    i += 1
                else:
                    break
            tokens.append("".join(word))
            continue
        if _digit(c):
            while i < n and _digit(s[i]):
                i += 1
            if i + 1 < n and s[i] == "." and _digit(s[i + 1]):
                i += 1
                while i < n and _digit(s[i]):
                    i += 1
            tokens.append(s[start:i])
            continue
        tokens.append(c)
        i += 1
    return tokens


def fit_vocabulary(texts, max_size):
    """token -> id for at most max_size ids (padding and unknown included): the most frequent
    tokens of the texts, ties by first appearance (Python's sort is stable, as the engine's)."""
    counts = {}  # dicts keep insertion order: the order of first appearance
    for text in texts:
        for token in tokenize(text):
            counts[token] = counts.get(token, 0) + 1
    ranked = sorted(counts, key=lambda t: -counts[t])[:max_size - FIRST_TOKEN]
    return {token: FIRST_TOKEN + i for i, token in enumerate(ranked)}


def encode(text, vocabulary, length):
    """The ids of the text's first `length` tokens, PRE-padded: padding in front, so the last step is
    the last kept token."""
    ids = [vocabulary.get(token, UNKNOWN) for token in tokenize(text)[:length]]
    return [PADDING] * (length - len(ids)) + ids


if __name__ == "__main__":
    checks = [
        ("Don't stop: 3.5 stars!!", ["don't", "stop", ":", "3.5", "stars", "!", "!"]),
        ("ÉCOLE d’été 12.x 'quoted' £5", ["école", "d'été", "12", ".", "x", "'", "quoted", "'", "£", "5"]),
        ("rock'n'roll—Σίσυφος", ["rock'n'roll", "—", "σίσυφος"]),
        ("a1b 7. end", ["a", "1", "b", "7", ".", "end"]),
        # tests/tst_text.cpp's cases
        ("Rock'n'roll 3. v2.0.1 'hi' students' 10,000",
         "rock'n'roll | 3 | . | v | 2.0 | . | 1 | ' | hi | ' | students | ' | 10 | , | 000".split(" | ")),
        ("  \t\n ", []),
        ("a+b=c; (x) #1 ...\"q\"", 'a | + | b | = | c | ; | ( | x | ) | # | 1 | . | . | . | " | q | "'.split(" | ")),
        ("\u00c7a co\u00fbte 12,50\u20ac \u2014 TR\u00c8S cher, l\u2019\u00c9T\u00c9\u00a0\u00abbien\u00bb!",
         "ça | coûte | 12 | , | 50 | € | — | très | cher | , | l'été | « | bien | » | !".split(" | ")),
        ("ΑΘΗΝΑ Москва Łóź", ["αθηνα", "москва", "łóź"]),
        ("\u2018Quoted\u2019 \u0178ES \u0130", ["\u2018", "quoted", "\u2019", "ÿes", "i"]),
        ("Cafe\u0301 great\U0001f44d\U0001f44d", ["cafe\u0301", "great", "\U0001f44d", "\U0001f44d"]),
        ("日本。", ["日本", "。"]),
    ]
    for text, expected in checks:
        got = tokenize(text)
        assert got == expected, (text, got, expected)
    training = ["b a c", "A c d", "C!"]  # tst_text.cpp's: c three times, a twice, b and d once
    assert list(fit_vocabulary(training, 5)) == ["c", "a", "b"]
    assert list(fit_vocabulary(training, 100)) == ["c", "a", "b", "d", "!"]
    v = fit_vocabulary(["b a a", "c b"], 4)
    assert v == {"b": 2, "a": 3}, v  # b and a both twice: b appeared first
    assert encode("a z b", v, 5) == [0, 0, 3, 1, 2] and encode("a a a", v, 2) == [3, 3]
    print("text_tokenizer: all checks pass")
