// Text data: the tokenizer, the vocabulary, its JSON form and the UTF-8 checks.
#include <QtTest>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "data/text_vocabulary.h"
#include "io/json.h"
#include "test_support.h"

using namespace skynnet;

namespace {

// Tokens joined with " | ", so that a failure shows both lists readably.
QString joined(const std::vector<std::string>& tokens) {
    std::string out;
    for (const std::string& t : tokens) out += (out.empty() ? "" : " | ") + t;
    return QString::fromStdString(out);
}

QString tokens(const char* text) { return joined(tokenizeText(text)); }

QString ids(const std::vector<std::int32_t>& values) {
    QStringList out;
    for (std::int32_t v : values) out << QString::number(v);
    return out.join(' ');
}

// c three times, a twice, b and d once each; b appears before d.
const std::vector<std::string> trainingTexts = {"b a c", "A c d", "C!"};

}  // namespace

class TstText : public QObject {
    Q_OBJECT

private slots:
    void tokenisesWordsNumbersAndPunctuation() {
        QCOMPARE(tokens("Don't stop: 3.5 stars!!"), QString("don't | stop | : | 3.5 | stars | ! | !"));
        QCOMPARE(tokens("Rock'n'roll 3. v2.0.1 'hi' students' 10,000"),
                 QString("rock'n'roll | 3 | . | v | 2.0 | . | 1 | ' | hi | ' | students | ' | 10 | , | 000"));
        QCOMPARE(tokens("  \t\n "), QString());
        QCOMPARE(tokens(""), QString());
        QCOMPARE(tokens("a+b=c; (x) #1 ...\"q\""),
                 QString("a | + | b | = | c | ; | ( | x | ) | # | 1 | . | . | . | \" | q | \""));
    }

    void tokenisesUtf8Letters() {
        // Accented capitals are lower-cased; the typographic apostrophe inside a word becomes ',
        // the euro sign, the em dash and the guillemets are punctuation; a no-break space separates.
        QCOMPARE(tokens("\xc3\x87"
                        "a co\xc3\xbb"
                        "te 12,50\xe2\x82\xac \xe2\x80\x94 TR\xc3\x88S cher, "
                        "l\xe2\x80\x99\xc3\x89T\xc3\x89\xc2\xa0\xc2\xab"
                        "bien\xc2\xbb!"),
                 QString::fromUtf8("ça | coûte | 12 | , | 50 | € | — | très | cher | , | l'été | « | bien | » | !"));
        QCOMPARE(tokens("\xce\x91\xce\x98\xce\x97\xce\x9d\xce\x91 \xd0\x9c\xd0\xbe\xd1\x81\xd0\xba\xd0\xb2\xd0\xb0 "
                        "\xc5\x81\xc3\xb3\xc5\xba"),
                 QString::fromUtf8("αθηνα | москва | łóź"));
        // Typographic quotes outside a word are punctuation; Ÿ and the dotted İ lower-case too.
        QCOMPARE(tokens("\xe2\x80\x98Quoted\xe2\x80\x99 \xc5\xb8"
                        "ES \xc4\xb0"),
                 QString::fromUtf8("‘ | quoted | ’ | ÿes | i"));
        // A combining accent stays in its word; emoji are punctuation, one token each.
        QCOMPARE(tokens("Cafe\xcc\x81 great\xf0\x9f\x91\x8d\xf0\x9f\x91\x8d"),
                 QString::fromUtf8("cafe\xcc\x81 | great | 👍 | 👍"));
        // A script without spaces is one word per run.
        QCOMPARE(tokens("\xe6\x97\xa5\xe6\x9c\xac\xe3\x80\x82"), QString::fromUtf8("日本 | 。"));
    }

    void fitsTheMostFrequentTokensTiesByFirstAppearance() {
        const TextVocabulary v = fitVocabulary(trainingTexts, 5);
        QCOMPARE(joined(v.tokens), QString("c | a | b"));  // d (tied with b, seen later) left out
        QCOMPARE(v.size(), 5);
        QCOMPARE(v.idOf("c"), 2);
        QCOMPARE(v.idOf("a"), 3);
        QCOMPARE(v.idOf("b"), 4);
        QCOMPARE(v.idOf("d"), TextVocabulary::unknownId);
        QCOMPARE(v.idOf("!"), TextVocabulary::unknownId);
        QCOMPARE(TextVocabulary::unknownId, 1);
        QCOMPARE(TextVocabulary::paddingId, 0);

        // Room for everything: the ties come in order of first appearance (b, d, then !).
        const TextVocabulary all = fitVocabulary(trainingTexts, 100);
        QCOMPARE(joined(all.tokens), QString("c | a | b | d | !"));
        QCOMPARE(joined(fitVocabulary(trainingTexts, 100).tokens), joined(all.tokens));

        const TextVocabulary none = fitVocabulary({}, 10);
        QCOMPARE(none.size(), 2);
        QCOMPARE(ids(none.encode("anything at all", 4)), QString("0 1 1 1"));

        QCOMPARE(errorOf([] { fitVocabulary(trainingTexts, 2); }),
                 std::string("the vocabulary size must be at least 3 (padding, unknown and one token), not 2"));
        QCOMPARE(errorOf([] {
                     fitVocabulary({"ok", "bad \xff"}, 10);
                 }),
                 std::string("text is not UTF-8 (byte 0xff at column 5)"));
    }

    void encodesWithTruncationPaddingAndUnknownIds() {
        const TextVocabulary v = fitVocabulary(trainingTexts, 5);
        QCOMPARE(ids(v.encode("A d C a B", 3)), QString("3 1 2"));  // truncated to 3
        QCOMPARE(ids(v.encode("A d C a B", 5)), QString("3 1 2 3 4"));
        QCOMPARE(ids(v.encode("A d C a B", 7)), QString("0 0 3 1 2 3 4"));  // pre-padded with 0
        QCOMPARE(ids(v.encode("", 3)), QString("0 0 0"));
        QCOMPARE(ids(v.encode("zebra", 1)), QString("1"));
        QCOMPARE(errorOf([&] { v.encode("a", 0); }), std::string("the text length must be at least 1, not 0"));
        QCOMPARE(errorOf([&] { v.encode("a\xc3", 2); }), std::string("text is not UTF-8 (byte 0xc3 at column 2)"));
    }

    void jsonRoundTrip() {
        TextVocabulary v = fitVocabulary({"Très bien, très bien.", "l'été 3.5"}, 100);
        v.maxLength = 12;
        const std::string text = dumpJson(toJson(v));
        QCOMPARE(QString::fromStdString(text), QString::fromUtf8("{\"tokenizerRule\":1,\"maxLength\":12,\"tokens\":["
                                                                 "\"très\",\"bien\",\",\",\".\",\"l'été\",\"3.5\"]}"));
        const Json doc = parseJson(text, "model.skym");
        const TextVocabulary back = vocabularyFromJson(JsonField(doc, "model.skym"));
        QCOMPARE(joined(back.tokens), joined(v.tokens));
        QCOMPARE(back.maxLength, 12);
        QCOMPARE(ids(back.encode("BIEN, l'été 4", 6)), ids(v.encode("BIEN, l'été 4", 6)));
        QCOMPARE(ids(back.encode("BIEN, l'été 4", 6)), QString("0 0 3 4 6 1"));

        QCOMPARE(errorOf([] { toJson(fitVocabulary({"a"}, 3)); }),
                 std::string("the text length (maxLength) must be set before the vocabulary is saved, not 0"));
    }

    void damagedJsonNamesItsField() {
        const auto errorFor = [](const std::string& vocabulary) {
            const Json doc = parseJson("{\"vocabulary\":" + vocabulary + "}", "model.skym");
            return errorOf([&] { vocabularyFromJson(JsonField(doc, "model.skym").at("vocabulary")); });
        };
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":4,\"tokens\":[\"a\",\"b\"]}"), std::string("(no error)"));
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":4,\"tokens\":[\"a\",\"Two words\"]}"),
                 std::string(
                     "model.skym: vocabulary.tokens[1] (\"Two words\") is not a token that tokenizer rule 1 makes"));
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":4,\"tokens\":[\"a\",\"B\"]}"),
                 std::string("model.skym: vocabulary.tokens[1] (\"B\") is not a token that tokenizer rule 1 makes"));
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":4,\"tokens\":[\"a\",\"b\",\"a\"]}"),
                 std::string("model.skym: vocabulary.tokens[2] (\"a\") is listed twice"));
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":4,\"tokens\":[\"a\",7]}"),
                 std::string("model.skym: vocabulary.tokens[1] must be a string, not a number"));
        QCOMPARE(errorFor("{\"tokenizerRule\":2,\"maxLength\":4,\"tokens\":[\"a\"]}"),
                 std::string(
                     "model.skym: vocabulary.tokenizerRule is 2, but this version of Skynnet knows rule 1 only"));
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":0,\"tokens\":[\"a\"]}"),
                 std::string("model.skym: vocabulary.maxLength must be a positive integer"));
        QCOMPARE(errorFor("{\"tokenizerRule\":1,\"maxLength\":4}"),
                 std::string("model.skym: missing field 'vocabulary.tokens'"));
    }

    void invalidUtf8NamesThePlace() {
        QCOMPARE(errorOf([] { checkUtf8("great \xff film", "reviews.csv:12"); }),
                 std::string("reviews.csv:12: text is not UTF-8 (byte 0xff at column 7)"));
        // Columns count characters: é is one.
        QCOMPARE(errorOf([] { checkUtf8("h\xc3\xa9llo\xc3", "reviews.csv:2"); }),
                 std::string("reviews.csv:2: text is not UTF-8 (byte 0xc3 at column 6)"));
        QCOMPARE(errorOf([] { checkUtf8("\xc3(", "r.csv:1"); }),
                 std::string("r.csv:1: text is not UTF-8 (byte 0xc3 at column 1)"));
        QCOMPARE(errorOf([] { checkUtf8("\x80", "r.csv:1"); }),
                 std::string("r.csv:1: text is not UTF-8 (byte 0x80 at column 1)"));
        // Overlong '/', a surrogate, a code point beyond U+10FFFF.
        QCOMPARE(errorOf([] { checkUtf8("\xc0\xaf", "r.csv:1"); }),
                 std::string("r.csv:1: text is not UTF-8 (byte 0xc0 at column 1)"));
        QCOMPARE(errorOf([] { checkUtf8("ab\xed\xa0\x80", "r.csv:1"); }),
                 std::string("r.csv:1: text is not UTF-8 (byte 0xed at column 3)"));
        QCOMPARE(errorOf([] { checkUtf8("\xf4\x90\x80\x80", "r.csv:1"); }),
                 std::string("r.csv:1: text is not UTF-8 (byte 0xf4 at column 1)"));
        QCOMPARE(errorOf([] { checkUtf8("\xf0\x9f\x91\x8d \xc3\xa9t\xc3\xa9 \xe2\x82\xac", "r.csv:1"); }),
                 std::string("(no error)"));
        QCOMPARE(errorOf([] { tokenizeText("\xfe"); }), std::string("text is not UTF-8 (byte 0xfe at column 1)"));
    }

    void emptyTextIsAnErrorWhenAsked() {
        QCOMPARE(errorOf([] { checkUtf8("", "reviews.csv:3", EmptyText::refused); }),
                 std::string("reviews.csv:3: text is empty"));
        QCOMPARE(errorOf([] { checkUtf8(" \t\xc2\xa0", "reviews.csv:4", EmptyText::refused); }),
                 std::string("reviews.csv:4: text is empty"));
        QCOMPARE(errorOf([] { checkUtf8("", "reviews.csv:3"); }), std::string("(no error)"));
        QCOMPARE(errorOf([] { checkUtf8("!", "reviews.csv:3", EmptyText::refused); }), std::string("(no error)"));
        // Invalid bytes are named before emptiness.
        QCOMPARE(errorOf([] { checkUtf8(" \xff", "reviews.csv:5", EmptyText::refused); }),
                 std::string("reviews.csv:5: text is not UTF-8 (byte 0xff at column 2)"));
    }
};

QTEST_APPLESS_MAIN(TstText)
#include "tst_text.moc"
