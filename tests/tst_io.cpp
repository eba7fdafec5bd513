// JSON, checksums, atomic saving, the model container and the saved-model format.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>

#include <bit>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/rng.h"
#include "io/atomic_file.h"
#include "io/checksum.h"
#include "io/container.h"
#include "io/json.h"
#include "model/network.h"
#include "model/saved_model.h"
#include "split/combined_model_file.h"
#include "test_support.h"

using skynnet::Json;
using skynnet::JsonField;

namespace {

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// A small file with a header and two blocks, for the corruption tests.
skynnet::ModelFileContents smallContents() {
    skynnet::ModelFileContents c;
    c.header = Json::object({{"kind", "test"}, {"n", 3}});
    c.blocks = {{1.0f, 2.0f, 3.0f}, {-0.5f}};
    return c;
}

}  // namespace

class TstIo : public QObject {
    Q_OBJECT

private slots:
    void jsonNumbersPrintShortestExact() {
        QCOMPARE(skynnet::dumpJson(Json(0.1)), std::string("0.1"));
        QCOMPARE(skynnet::dumpJson(Json(3.0)), std::string("3.0"));  // nlohmann marks doubles
        QCOMPARE(skynnet::dumpJson(Json(-0.0)), std::string("-0.0"));
        QCOMPARE(skynnet::dumpJson(Json(1e-7)), std::string("1e-07"));
        QCOMPARE(skynnet::dumpJson(Json(42)), std::string("42"));
        QCOMPARE(skynnet::dumpJson(Json(std::numeric_limits<std::int64_t>::max())), std::string("9223372036854775807"));
        QCOMPARE(skynnet::dumpJson(Json(std::numeric_limits<double>::quiet_NaN())), std::string("null"));
        QCOMPARE(skynnet::dumpJson(Json(std::numeric_limits<double>::infinity())), std::string("null"));
        const double values[] = {0.1, 1e-7, -0.0, 1.0 / 3.0, 5e-324, 1.7976931348623157e308, 123456789.125, -2.5e-300};
        for (double v : values) {
            const Json back = skynnet::parseJson(skynnet::dumpJson(Json(v)));
            QCOMPARE(JsonField(back).asDouble(), v);
            QCOMPARE(std::signbit(JsonField(back).asDouble()), std::signbit(v));
        }
        const auto parsed = [](const char* text) { return skynnet::parseJson(text); };
        // "-0" (how the hand-written writer wrote -0.0) stays negative zero.
        QVERIFY(std::signbit(JsonField(parsed("-0")).asDouble()));
        QVERIFY(std::signbit(JsonField(parsed("[1, -0]")).at(std::size_t(1)).asDouble()));
        QVERIFY(!std::signbit(JsonField(parsed("[-0.5, 0]")).at(std::size_t(1)).asDouble()));
        QCOMPARE(JsonField(parsed("9007199254740993")).asInt64(), std::int64_t(9007199254740993));  // not a double
        QCOMPARE(JsonField(parsed("-9223372036854775808")).asInt64(), std::numeric_limits<std::int64_t>::min());
        QCOMPARE(JsonField(parsed("9223372036854775807")).asInt64(), std::numeric_limits<std::int64_t>::max());
        // Above INT64_MAX: exact as uint64, refused as int64, a double beyond uint64.
        const Json big = parsed("18446744073709551615");
        QCOMPARE(big.get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(skynnet::dumpJson(big), std::string("18446744073709551615"));
        QCOMPARE(skynnet::dumpJson(Json(std::numeric_limits<std::uint64_t>::max())),
                 std::string("18446744073709551615"));
        QCOMPARE(errorText([&] { JsonField(big, "n.json").asInt64(); }),
                 QString("n.json: the top-level value is out of range (18446744073709551615)"));
        QCOMPARE(errorText([&] { JsonField(parsed("9223372036854775808"), "n.json").get<std::int64_t>(); }),
                 QString("n.json: the top-level value is out of range (9223372036854775808)"));
        QCOMPARE(JsonField(parsed("18446744073709551616")).asDouble(), 18446744073709551616.0);
        QCOMPARE(JsonField(parsed("1e-400")).asDouble(), 0.0);
        QCOMPARE(JsonField(parsed("2.5E+3")).asInt(), 2500);
        // A float written as a double reads back as the identical float.
        for (float f : {0.1f, 1e-7f, 3.4028235e38f, 1.17549435e-38f, -123.456f}) {
            const Json back = skynnet::parseJson(skynnet::dumpJson(Json::array({f})));
            QCOMPARE(float(JsonField(back).at(std::size_t(0)).asDouble()), f);
        }
    }

    void jsonRoundTripNested() {
        Json j;
        j["name"] = "Zürich 日本 😀";
        j["escapes"] = std::string("quote\" backslash\\ slash/ \n\r\t\b\f \x01 \x1f", 33);
        j["numbers"] = Json::array({0.1, 1e-7, -0.0, std::int64_t(1) << 62, -17, 1e300});
        j["flags"] = Json::array({true, false, nullptr});
        j["empty"] = Json::object();
        j["emptyArray"] = Json::array();
        j["nested"]["deeper"]["list"].push_back(Json::object({{"a", 1}, {"b", Json::array({1, 2})}}));
        j["names"] = std::vector<std::string>{"x", "y"};
        for (int indent : {-1, 0, 2}) {
            const std::string text = skynnet::dumpJson(j, indent);
            const Json back = skynnet::parseJson(text);
            QVERIFY2(back == j, text.c_str());
            QCOMPARE(skynnet::dumpJson(back, indent), text);
        }
        // Insertion order is kept when writing and when reading.
        QCOMPARE(skynnet::dumpJson(Json::object({{"b", 1}, {"a", 2}})), std::string(R"({"b":1,"a":2})"));
        QCOMPARE(skynnet::dumpJson(skynnet::parseJson(R"({"z": 1, "a": {"y": 2, "b": 3}})")),
                 std::string(R"({"z":1,"a":{"y":2,"b":3}})"));
        QCOMPARE(skynnet::dumpJson(skynnet::parseJson(R"({"a": [1, 2], "o": {"k": "v"}})"), 2),
                 std::string("{\n  \"a\": [\n    1,\n    2\n  ],\n  \"o\": {\n    \"k\": \"v\"\n  }\n}"));
    }

    void jsonStrings() {
        QCOMPARE(JsonField(skynnet::parseJson(R"("\u00e9\ud83d\ude00\n\/")")).asString(), std::string("é😀\n/"));
        QCOMPARE(skynnet::dumpJson(Json(std::string("\x01\x7f", 2))), std::string("\"\\u0001\x7f\""));
        QCOMPARE(skynnet::dumpJson(Json("é😀")), std::string("\"é😀\""));
        // Invalid UTF-8 is replaced so the output always parses again.
        const std::string bad = skynnet::dumpJson(Json(std::string("a\xff"
                                                                   "b\xc3")));
        QCOMPARE(bad, std::string("\"a\xEF\xBF\xBD"
                                  "b\xEF\xBF\xBD\""));
        QCOMPARE(JsonField(skynnet::parseJson(bad)).asString(), std::string("a\xEF\xBF\xBD"
                                                                            "b\xEF\xBF\xBD"));
        QCOMPARE(JsonField(skynnet::parseJson("\xEF\xBB\xBF[1]")).size(), std::size_t(1));  // byte-order mark
    }

    // The position is the library's (the character where it stopped), as line:column with
    // columns counted in characters; the problem is its message without its own prefix.
    void jsonParseErrors_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing comma") << QByteArray("{\n  \"a\": 1\n  \"b\": 2\n}")
                                       << "3:5: syntax error while parsing object - unexpected string literal; "
                                          "expected '}'";
        QTest::newRow("missing comma at 3:17")
            << QByteArray("{\n  \"a\": 1,\n  \"layers\": [1] 2}")
            << "3:17: syntax error while parsing object - unexpected number literal; expected '}'";
        QTest::newRow("open array") << QByteArray("[1, 2")
                                    << "1:6: syntax error while parsing array - unexpected end of input; expected ']'";
        QTest::newRow("empty") << QByteArray("")
                               << "1:1: syntax error while parsing value - unexpected end of input; expected '[', '{', "
                                  "or a literal";
        QTest::newRow("no colon") << QByteArray("{\"a\" 1}")
                                  << "1:6: syntax error while parsing object separator - unexpected number literal; "
                                     "expected ':'";
        QTest::newRow("trailing comma") << QByteArray("[1,]")
                                        << "1:4: syntax error while parsing value - unexpected ']'; expected '[', '{', "
                                           "or a literal";
        QTest::newRow("leading zero") << QByteArray("01")
                                      << "1:2: syntax error while parsing value - unexpected number literal; expected "
                                         "end of input";
        QTest::newRow("bad escape") << QByteArray("\"\\q\"")
                                    << "1:3: syntax error while parsing value - invalid string: forbidden character "
                                       "after backslash; last read: '\"\\q'";
        QTest::newRow("columns count characters")
            << QByteArray("\"é\" x")
            << "1:5: syntax error while parsing value - invalid literal; last read: '\"é\" x'; expected end of input";
        QTest::newRow("huge number") << QByteArray("[1e400]") << "1:7: number overflow parsing '1e400'";
        QTest::newRow("minus only") << QByteArray("-")
                                    << "1:2: syntax error while parsing value - invalid number; expected digit after "
                                       "'-'; last read: '-'";
        QTest::newRow("duplicate") << QByteArray("{\"a\":1,\"a\":2}") << "1:8: duplicate key 'a'";
        QTest::newRow("duplicate nested")
            << QByteArray("{\"network\": {\"layers\": [{}, {\n  \"units\": 1, \"units\": 2}]}}")
            << "2:15: duplicate key 'network.layers[1].units'";
        QTest::newRow("duplicate escaped") << QByteArray("{\"k\\\"\":1, \"k\\\"\":2}") << "1:11: duplicate key 'k\"'";
    }

    void jsonParseErrors() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QCOMPARE(errorText([&] {
                     skynnet::parseJson(std::string_view(text.constData(), std::size_t(text.size())), "model.json");
                 }),
                 "model.json:" + message);
    }

    // Text the library refuses, each with the position and the library's reason.
    void jsonRefusesInvalidText_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("start");
        QTest::addColumn<QString>("reason");
        QTest::newRow("bare key") << QByteArray("{a: 1}") << "1:2:"
                                  << "expected string literal";
        QTest::newRow("unterminated") << QByteArray("[\"abc") << "1:6:"
                                      << "missing closing quote";
        QTest::newRow("lone surrogate") << QByteArray("\"x\\ud800\"") << "1:9:"
                                        << "must be followed by U+DC00..U+DFFF";
        QTest::newRow("low surrogate") << QByteArray("\"\\udc00\"") << "1:7:"
                                       << "must follow U+D800..U+DBFF";
        QTest::newRow("bad hex") << QByteArray("\"\\u12g4\"") << "1:6:"
                                 << "'\\u' must be followed by 4 hex digits";
        QTest::newRow("bad literal") << QByteArray("[tru]") << "1:5:"
                                     << "invalid literal";
        QTest::newRow("no fraction digits") << QByteArray("1.") << "1:3:"
                                            << "expected digit after '.'";
        QTest::newRow("control char") << QByteArray("[\"a\nb\"]") << "1:4:"
                                      << "control character U+000A (LF) must be escaped";
        QTest::newRow("invalid utf8") << QByteArray("\"a\xc0\xaf\"") << "1:3:"
                                      << "ill-formed UTF-8 byte";
        QTest::newRow("surrogate as utf8") << QByteArray("\"\xed\xa0\x80\"") << "1:3:"
                                           << "ill-formed UTF-8 byte";
    }

    void jsonRefusesInvalidText() {
        QFETCH(QByteArray, text);
        QFETCH(QString, start);
        QFETCH(QString, reason);
        const std::string e = errorOf(
            [&] { skynnet::parseJson(std::string_view(text.constData(), std::size_t(text.size())), "model.json"); });
        QVERIFY2(e.starts_with("model.json:" + start.toStdString() + " syntax error while parsing"), e.c_str());
        VERIFY_CONTAINS(e, reason.toStdString());
    }

    void jsonDepthLimit() {
        const auto nested = [](int depth) {
            return std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']');
        };
        QCOMPARE(JsonField(skynnet::parseJson(nested(skynnet::jsonMaxDepth))).size(), std::size_t(1));
        QCOMPARE(errorText([&] { skynnet::parseJson(nested(skynnet::jsonMaxDepth + 1), "deep.json"); }),
                 QString("deep.json:1:257: nested deeper than 256 levels"));
        // Far deeper input must fail cleanly, not overflow the stack.
        QCOMPARE(errorText([] { skynnet::parseJson(std::string(1000000, '['), "x"); }),
                 QString("x:1:257: nested deeper than 256 levels"));
        VERIFY_CONTAINS(errorOf([] { skynnet::parseJson(std::string(1000000, '{'), "x"); }), "expected string literal");
        std::string objects;
        for (int i = 0; i < 300; ++i) objects += "{\"a\":";
        QCOMPARE(errorText([&] { skynnet::parseJson(objects, "x"); }),
                 QString("x:1:1281: nested deeper than 256 levels"));
    }

    void jsonErrorQuotesOnlyTheEndOfALongToken() {
        const std::string text = "[\"" + std::string(1000000, 'a') + "\\q\"]";
        QCOMPARE(errorText([&] { skynnet::parseJson(text, "x"); }),
                 QString("x:1:1000004: syntax error while parsing value - invalid string: forbidden character after "
                         "backslash; last read: '..." +
                         QString(38, 'a') + "\\q'"));
    }

    void jsonAccessorsNameTheField() {
        const Json doc =
            skynnet::parseJson(R"({"network": {"layers": [{"units": "wide"}, 3.5], "n": 1e10}, "ok": true})",
                               "model.json");
        const JsonField j(doc, "model.json");
        QCOMPARE(errorText([&] { j.at("network").at("nope"); }), QString("model.json: missing field 'network.nope'"));
        QCOMPARE(errorText([&] { j.at("network").at("layers").at(0).at("units").asInt(); }),
                 QString("model.json: network.layers[0].units must be a whole number, not a string"));
        QCOMPARE(errorText([&] { j.at("network").at("layers").at(1).asInt(); }),
                 QString("model.json: network.layers[1] must be a whole number, not 3.5"));
        QCOMPARE(errorText([&] { j.at("network").at("layers").at(5); }),
                 QString("model.json: network.layers has no element [5] (it has 2)"));
        QCOMPARE(errorText([&] { j.at("network").at("n").get<int>(); }),
                 QString("model.json: network.n is out of range (10000000000)"));
        QCOMPARE(errorText([&] { j.at("ok").asString(); }), QString("model.json: ok must be a string, not a boolean"));
        QCOMPARE(errorText([&] { j.asArray(); }),
                 QString("model.json: the top-level value must be an array, not an object"));
        QCOMPARE(errorText([&] { j.at("network").at("layers").get<std::vector<int>>(); }),
                 QString("model.json: network.layers[0] must be a whole number, not an object"));
        QCOMPARE(errorText([&] { j.at("network").at("layers").at(0).at("units").fail("must be a positive integer"); }),
                 QString("model.json: network.layers[0].units must be a positive integer"));
        QCOMPARE(errorText([&] { j.at("network").asArray(); }),
                 QString("model.json: network must be an array, not an object"));
        QCOMPARE(errorText([&] { j.at("ok").find("x"); }), QString("model.json: ok must be an object, not a boolean"));
        QCOMPARE(j.at("network").at("n").get<std::int64_t>(), std::int64_t(10000000000));
        // A value kept after reading (a model's "extra") still names its file and its place there.
        const Json extra = Json::object({{"split", Json::object({{"seed", "one"}})}});
        QCOMPARE(errorText([&] { JsonField(extra, "model.skym", "extra").at("split").at("seed").asInt(); }),
                 QString("model.skym: extra.split.seed must be a whole number, not a string"));
        QCOMPARE(j.value("ok", false), true);
        QCOMPARE(j.value("missing", 7), 7);
        QCOMPARE(j.value("missing", "text"), std::string("text"));
        QVERIFY(j.contains("ok") && !j.contains("missing") && !j.find("missing"));
        // Members and elements carry their paths when iterated.
        const auto members = j.at("network").asObject();
        QCOMPARE(members.size(), std::size_t(2));
        QCOMPARE(members[0].first, std::string("layers"));
        QCOMPARE(QString::fromStdString(members[1].second.where()), QString("model.json: network.n"));
        QCOMPARE(QString::fromStdString(j.at("network").at("layers").asArray()[1].where()),
                 QString("model.json: network.layers[1]"));

        Json built;
        built["a"]["b"] = 1;
        built["list"].push_back("x");
        built["list"].push_back(2.5);
        QCOMPARE(skynnet::dumpJson(built), std::string(R"({"a":{"b":1},"list":["x",2.5]})"));
        QCOMPARE(errorText([&] { JsonField(built).at("a").at("c"); }), QString("missing field 'a.c'"));
        QVERIFY(built.erase("a") == 1 && built.erase("a") == 0);
        QCOMPARE(skynnet::dumpJson(built), std::string(R"({"list":["x",2.5]})"));
        QVERIFY(skynnet::parseJson("[1, 2.0]") == Json::array({1.0, 2}));
    }

    void crc32Check() {
        QCOMPARE(skynnet::crc32("123456789"), std::uint32_t(0xCBF43926));
        QCOMPARE(skynnet::crc32(""), std::uint32_t(0));
        skynnet::Crc32 running;
        running.update("1234");
        running.update("56789");
        QCOMPARE(running.value(), std::uint32_t(0xCBF43926));
    }

    void modelFileRoundTripIsBitExact() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.skynnet").toStdString();
        skynnet::ModelFileContents c;
        c.header = Json::object({{"kind", "test"}, {"text", "é\n\"q\""}, {"list", Json::array({1, 0.1, nullptr})}});
        std::vector<float> special = {1.5f,
                                      -0.0f,
                                      std::numeric_limits<float>::infinity(),
                                      std::numeric_limits<float>::denorm_min(),
                                      std::numeric_limits<float>::max(),
                                      std::bit_cast<float>(std::uint32_t(0x7fc01234))};  // NaN with a payload
        std::vector<float> large(10000);
        skynnet::Rng rng(5);
        for (float& v : large) v = rng.normal(0.0f, 1.0f);
        c.blocks = {{}, special, large};
        skynnet::saveModelFile(path, c);
        const auto back = skynnet::loadModelFile(path);
        QVERIFY(back.header == c.header);
        QCOMPARE(back.blocks.size(), c.blocks.size());
        for (std::size_t i = 0; i < c.blocks.size(); ++i) QVERIFY(sameBits(back.blocks[i], c.blocks[i]));
        // The documented layout: magic, version 1 little-endian.
        const std::string bytes = skynnet::readFile(path);
        QCOMPARE(bytes.substr(0, 12), std::string("SKYNNETM\x01\x00\x00\x00", 12));
        QCOMPARE(entries(dir.path()), QStringList{"m.skynnet"});
    }

    void modelFileTruncatedAtEveryLength() {
        QTemporaryDir dir;
        const std::string full = dir.filePath("full.skynnet").toStdString();
        const std::string cut = dir.filePath("cut.skynnet").toStdString();
        skynnet::saveModelFile(full, smallContents());
        const std::string bytes = skynnet::readFile(full);
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            writeBytes(cut, bytes.substr(0, n));
            const QString e = errorText([&] { skynnet::loadModelFile(cut); });
            const QString expected = QString::fromStdString(cut) +
                                     (n == 0 ? " is empty, not a Skynnet model file" : " is truncated");
            QVERIFY2(e == expected, qPrintable(QString::number(n) + ": " + e));
        }
        writeBytes(cut, bytes + "x");
        QCOMPARE(errorText([&] { skynnet::loadModelFile(cut); }),
                 QString::fromStdString(cut) + " is damaged (unexpected data after the end)");
    }

    void modelFileDamaged() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.skynnet").toStdString();
        skynnet::ModelFileContents c = smallContents();
        c.blocks.push_back(std::vector<float>(1000, 0.25f));
        skynnet::saveModelFile(path, c);
        const std::string bytes = skynnet::readFile(path);
        const QString damaged = QString::fromStdString(path) + " is damaged (checksum mismatch)";
        // In the middle (float data), in the JSON header, and in the checksum itself.
        for (std::size_t at : {bytes.size() / 2, std::size_t(25), bytes.size() - 1}) {
            std::string bad = bytes;
            bad[at] = char(bad[at] ^ 0x10);
            writeBytes(path, bad);
            QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), damaged);
        }
    }

    void modelFileForeignAndNewer() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("x.skynnet").toStdString();
        const QString foreign = QString::fromStdString(path) + " is not a Skynnet model file";
        writeBytes(path, std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), foreign);
        writeBytes(path, "hello, world\n");
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), foreign);
        writeBytes(path, "S");
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), QString::fromStdString(path) + " is truncated");

        skynnet::saveModelFile(path, smallContents());
        std::string bytes = skynnet::readFile(path);
        bytes[8] = 7;
        writeBytes(path, bytes);
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }),
                 QString::fromStdString(path) + " was written by a newer Skynnet (format 7, this build reads up to 1)");

        const QString missing = dir.filePath("missing.skynnet");
        QCOMPARE(errorText([&] { skynnet::loadModelFile(missing.toStdString()); }), missing + " does not exist");
        QCOMPARE(errorText([&] { skynnet::loadModelFile(dir.path().toStdString()); }),
                 dir.path() + " is a directory, not a file");
    }

    void modelFileHugeClaimedLengths() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("h.skynnet").toStdString();
        const QString truncated = QString::fromStdString(path) + " is truncated";
        const std::string start("SKYNNETM\x01\x00\x00\x00", 12);
        const std::string huge("\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
        const std::string empty(8, '\0');
        const std::string tail(64, '\0');
        writeBytes(path, start + huge + tail);  // header length
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), truncated);
        writeBytes(path, start + empty + huge + tail);  // block count
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), truncated);
        writeBytes(path, start + empty + std::string("\x01\0\0\0\0\0\0\0", 8) + huge + tail);  // element count
        QCOMPARE(errorText([&] { skynnet::loadModelFile(path); }), truncated);
    }

    void networkSpecRoundTrip() {
        skynnet::NetworkSpec spec;
        spec.input = skynnet::Shape{1, 4, 4};
        spec.layers = skynnet::parseLayers(
            "dense:64:relu,dropout:0.3,dense:32:tanh,flatten,dense:8:leaky_relu,dense:5:sigmoid");
        std::get<skynnet::DenseSpec>(spec.layers[2]).scalable = false;
        spec.setOutputFor(skynnet::Task::Classification, 3);
        const Json j = skynnet::parseJson(skynnet::dumpJson(skynnet::toJson(spec), 2), "spec.json");
        QCOMPARE(skynnet::networkSpecFromJson(j), spec);
        spec.setOutputFor(skynnet::Task::Regression, 2);
        spec.layers.clear();
        QCOMPARE(skynnet::networkSpecFromJson(skynnet::parseJson(skynnet::dumpJson(skynnet::toJson(spec)))), spec);
    }

    void layerJsonOfEachKind_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("dense") << R"({"type":"dense","units":512,"activation":"relu","scalable":true})";
        QTest::newRow("dense fixed") << R"({"type":"dense","units":3,"activation":"tanh","scalable":false})";
        QTest::newRow("dropout") << R"({"type":"dropout","rate":0.25,"scalable":false})";
        QTest::newRow("flatten") << R"({"type":"flatten","scalable":false})";
    }
    void layerJsonOfEachKind() {
        // The written form is the file format: byte for byte what it has always been.
        QFETCH(QString, text);
        const Json doc = skynnet::parseJson(text.toStdString(), "layer.json");
        const skynnet::LayerSpec layer = skynnet::layerSpecFromJson(skynnet::JsonField(doc, "layer.json"));
        QCOMPARE(QString::fromStdString(skynnet::dumpJson(skynnet::toJson(layer))), text);
        const Json written = skynnet::toJson(layer);
        QCOMPARE(skynnet::layerSpecFromJson(written), layer);
    }

    void oldLayerJsonStillLoads() {
        using namespace skynnet;
        const auto load = [](const char* text) {
            const Json doc = parseJson(text, "old.json");
            return layerSpecFromJson(JsonField(doc, "old.json"));
        };
        // Activation and scalable were optional: relu, and scalable for a dense layer.
        QCOMPARE(load(R"({"type":"dense","units":16})"), LayerSpec(DenseSpec{16, Activation::ReLU, true}));
        QCOMPARE(load(R"({"type":"dense","units":8,"activation":"leaky_relu","scalable":false})"),
                 LayerSpec(DenseSpec{8, Activation::LeakyReLU, false}));
        // Older designers stored a scalable flag on every kind; only dense widths ever shrank.
        QCOMPARE(load(R"({"type":"dropout","rate":0.5,"scalable":true})"), LayerSpec(DropoutSpec{0.5f}));
        QCOMPARE(load(R"({"type":"dropout","rate":0.2})"), LayerSpec(DropoutSpec{0.2f}));
        QCOMPARE(load(R"({"type":"flatten"})"), LayerSpec(FlattenSpec{}));
        QCOMPARE(load(R"({"type":"flatten","scalable":true,"units":4})"), LayerSpec(FlattenSpec{}));
        // A whole network as the flat LayerSpec wrote it, key order and all.
        const Json doc = parseJson(
            R"({"input":{"channels":1,"height":4,"width":4},"layers":[)"
            R"({"type":"dense","units":64,"activation":"relu","scalable":true},)"
            R"({"type":"dropout","rate":0.3,"scalable":false},{"type":"flatten","scalable":false},)"
            R"({"type":"dense","units":32,"activation":"tanh","scalable":false}],"outputs":3,"outputActivation":"softmax"})",
            "old.json");
        const NetworkSpec net = networkSpecFromJson(JsonField(doc, "old.json"));
        QCOMPARE(formatLayers(net.layers), std::string("dense:64:relu,dropout:0.3,flatten,dense:32:tanh"));
        QVERIFY(!std::get<DenseSpec>(net.layers[3]).scalable);
        QCOMPARE(paramCount(net), std::int64_t(16 * 64 + 64 + 64 * 32 + 32 + 32 * 3 + 3));
    }

    void networkSpecErrorsNameTheField_data() {
        QTest::addColumn<QString>("layers");
        QTest::addColumn<QString>("message");
        QTest::newRow("units") << R"([{"type":"dense","units":4},{"type":"flatten"},{"type":"dense","units":-1}])"
                               << "network.layers[2].units must be a positive integer";
        QTest::newRow("fraction") << R"([{"type":"dense","units":2.5}])"
                                  << "network.layers[0].units must be a positive integer";
        QTest::newRow("too wide") << R"([{"type":"dense","units":1e12}])"
                                  << "network.layers[0].units must be at most 16777216";
        QTest::newRow("units missing") << R"([{"type":"dense"}])"
                                       << "missing field 'network.layers[0].units'";
        QTest::newRow("rate") << R"([{"type":"dropout","rate":1.5}])"
                              << "network.layers[0].rate must be at least 0 and below 1";
        QTest::newRow("type") << R"([{"type":"rnn"}])"
                              << "network.layers[0].type: unknown layer type 'rnn' (expected dense, dropout, flatten, "
                                 "conv, maxpool, avgpool, gap, bn, activation, embedding, gru, lstm, seqpool, patch, "
                                 "layernorm, attention or encoder)";
        QTest::newRow("recurrent units") << R"([{"type":"gru","units":0,"sequences":false}])"
                                         << "network.layers[0].units must be a positive integer";
        QTest::newRow("activation") << R"([{"type":"dense","units":3,"activation":"swish"}])"
                                    << "network.layers[0].activation: unknown activation 'swish' (expected relu, "
                                       "leaky_relu, sigmoid, tanh, softmax, gelu, relu6, softplus, elu or linear)";
        QTest::newRow("not array") << R"({"type":"dense"})"
                                   << "network.layers must be an array, not an object";
    }

    void networkSpecErrorsNameTheField() {
        QFETCH(QString, layers);
        QFETCH(QString, message);
        const std::string text = R"({"network":{"input":{"channels":1,"height":1,"width":3},"outputs":2,)"
                                 R"("outputActivation":"softmax","layers":)" +
                                 layers.toStdString() + "}}";
        const Json doc = skynnet::parseJson(text, "model.json");
        const JsonField j(doc, "model.json");
        QCOMPARE(errorText([&] { skynnet::networkSpecFromJson(j.at("network")); }), "model.json: " + message);
        const Json empty = skynnet::parseJson(R"({"input":{}})", "m.json");
        QCOMPARE(errorText([&] { skynnet::networkSpecFromJson(JsonField(empty, "m.json")); }),
                 QString("m.json: missing field 'input.channels'"));
    }

    void preprocessingRoundTrip() {
        skynnet::Preprocessing p;
        p.scaling = skynnet::Scaling::MinMax;
        p.rawColumns = 5;
        p.oneHot = {{1, {"rot", "grün", "\"blau\""}}, {3, {}}};
        p.numericColumns = {0, 2, 4};
        p.offset = skynnet::RowVector(3);
        p.offset << 0.1f, 1.0f / 3.0f, -123456.7f;
        p.scale = skynnet::RowVector(3);
        p.scale << 1e-30f, std::numeric_limits<float>::denorm_min(), 7.0f;
        const Json j = skynnet::parseJson(skynnet::dumpJson(skynnet::toJson(p)), "pre.json");
        const skynnet::Preprocessing q = skynnet::preprocessingFromJson(j);
        QVERIFY(q.scaling == p.scaling);
        QCOMPARE(q.rawColumns, p.rawColumns);
        QCOMPARE(q.oneHot.size(), p.oneHot.size());
        for (std::size_t i = 0; i < p.oneHot.size(); ++i) {
            QCOMPARE(q.oneHot[i].column, p.oneHot[i].column);
            QCOMPARE(q.oneHot[i].categories, p.oneHot[i].categories);
        }
        QCOMPARE(q.numericColumns, p.numericColumns);
        QVERIFY(q.offset == p.offset);  // exact float equality
        QVERIFY(q.scale == p.scale);

        const skynnet::Preprocessing unfitted = skynnet::preprocessingFromJson(
            skynnet::toJson(skynnet::Preprocessing{}));
        QCOMPARE(unfitted.rawColumns, 0);
        QCOMPARE(unfitted.offset.size(), skynnet::Index(0));

        Json bad = skynnet::toJson(p);
        bad["numericColumns"] = Json::array({0, 2, 5});
        QCOMPARE(errorText([&] {
                     skynnet::preprocessingFromJson(JsonField(skynnet::parseJson(skynnet::dumpJson(bad)), "m"));
                 }),
                 QString("m: numericColumns[2] must be a column index below rawColumns (5)"));
        bad["numericColumns"] = Json::array({0, 2});
        QCOMPARE(errorText([&] {
                     skynnet::preprocessingFromJson(JsonField(skynnet::parseJson(skynnet::dumpJson(bad)), "m"));
                 }),
                 QString("m: offset has 3 values for 2 numeric columns"));
        p.scale[1] = std::numeric_limits<float>::infinity();
        QCOMPARE(errorText([&] { skynnet::toJson(p); }),
                 QString("preprocessing.scale[1] is not a finite number, so it cannot be saved"));
    }

    void savedModelReproducesPredictions() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("net.skynnet").toStdString();
        skynnet::NetworkSpec spec;
        spec.input = skynnet::Shape::flat(6);
        spec.layers = skynnet::parseLayers("dense:16:relu,dropout:0.1,dense:8:tanh");
        spec.setOutputFor(skynnet::Task::Classification, 3);
        skynnet::Network net(spec, 42);

        skynnet::SavedModel m;
        m.schema.task = skynnet::Task::Classification;
        m.spec = spec;
        m.weights = net.flatWeights();
        m.preprocessing.rawColumns = 6;
        m.preprocessing.numericColumns = {0, 1, 2, 3, 4, 5};
        m.preprocessing.offset = skynnet::RowVector::Constant(6, 0.5f);
        m.preprocessing.scale = skynnet::RowVector::Constant(6, 2.0f);
        m.schema.classNames = {"cat", "dog", "bird"};
        m.schema.featureNames = {"a", "b", "c", "d", "e", "f"};
        m.extra = Json::object({{"epochs", 12}, {"accuracy", 0.875}});
        skynnet::saveModel(path, m);

        const skynnet::SavedModel back = skynnet::loadModel(path);
        QCOMPARE(back.spec, spec);
        QVERIFY(back.schema.task == m.schema.task);
        QVERIFY(sameBits(back.weights, m.weights));
        QCOMPARE(back.schema.classNames, m.schema.classNames);
        QCOMPARE(back.schema.featureNames, m.schema.featureNames);
        QVERIFY(back.schema.targetNames.empty());
        QVERIFY(back.extra == m.extra);
        QVERIFY(back.preprocessing.scale == m.preprocessing.scale);

        skynnet::Network restored(back.spec, 7);  // a different seed: every weight must come from the file
        restored.setFlatWeights(back.weights);
        skynnet::Matrix x(20, 6);
        skynnet::Rng rng(3);
        for (skynnet::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.normal(0.0f, 1.0f);
        const skynnet::Matrix a = net.predict(x);
        const skynnet::Matrix b = restored.predict(x);
        QVERIFY(a.size() == b.size() && std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
    }

    void savedCnnWithBatchNormReproducesPredictions() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cnn.skynnet").toStdString();
        skynnet::NetworkSpec spec;
        spec.input = skynnet::Shape{1, 8, 8};
        spec.layers = skynnet::parseLayers("conv:4:3x3:linear,bn,activation:relu,maxpool:2,flatten,dense:6:relu,bn");
        spec.setOutputFor(skynnet::Task::Classification, 3);
        skynnet::Network net(spec, 42);
        skynnet::Matrix x(16, 64);
        skynnet::Rng rng(3);
        for (skynnet::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.normal(1.0f, 2.0f);
        net.forward(x, true);  // training forwards move the running statistics away from 0 and 1
        net.forward(x.topRows(9), true);
        // conv 4 3x3 (36 + 4), bn (8, then 8 state), dense 36 -> 6 (222), bn (12, then 12 state), output 21.
        QCOMPARE(net.paramCount(), std::int64_t(40 + 8 + 222 + 12 + 21));
        QCOMPARE(skynnet::weightCount(spec), net.paramCount() + 20);

        skynnet::SavedModel m;
        m.schema.task = skynnet::Task::Classification;
        m.spec = spec;
        m.weights = net.flatWeights();
        skynnet::saveModel(path, m);
        const skynnet::SavedModel back = skynnet::loadModel(path);
        QCOMPARE(back.spec, spec);
        QVERIFY(sameBits(back.weights, m.weights));
        skynnet::Network restored(back.spec, 7);
        restored.setFlatWeights(back.weights);
        const skynnet::Matrix a = net.predict(x);
        const skynnet::Matrix b = restored.predict(x);
        QVERIFY(a.size() == b.size() && std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
        // The same file opened as a combined model of one submodel (as predict and export do).
        skynnet::CombinedModel combined = skynnet::buildCombinedModel(skynnet::asCombined(back));
        const skynnet::Matrix c = combined.predict(x);
        QVERIFY(c.size() == a.size() && std::memcmp(c.data(), a.data(), std::size_t(a.size()) * sizeof(float)) == 0);
        // Without the state the prediction would differ: it uses the running values.
        skynnet::Network fresh(back.spec, 7);
        std::vector<float> noState = back.weights;
        const auto freshWeights = fresh.flatWeights();
        std::copy(freshWeights.begin() + 48, freshWeights.begin() + 56, noState.begin() + 48);  // first bn's state
        fresh.setFlatWeights(noState);
        QVERIFY(fresh.predict(x) != a);

        // A block of the parameters alone (as if the state were forgotten) is refused, naming both counts.
        m.weights.resize(std::size_t(net.paramCount()));
        QCOMPARE(errorText([&] { skynnet::saveModel(path, m); }),
                 QString::fromStdString(
                     "cannot save " + path +
                     ": the network has 303 parameters and 20 state values but 303 weights are stored"));
    }

    void savedModelChecksConsistency() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("net.skynnet").toStdString();
        skynnet::SavedModel m;
        m.schema.task = skynnet::Task::Binary;
        m.spec.input = skynnet::Shape::flat(2);
        m.spec.setOutputFor(skynnet::Task::Binary, 1);
        m.weights = {1, 2};  // 2 inputs x 1 output + 1 bias = 3 needed
        QCOMPARE(errorText([&] { skynnet::saveModel(path, m); }),
                 QString::fromStdString("cannot save " + path +
                                        ": the network has 3 parameters but 2 weights are stored"));
        m.weights = {1, 2, 3};
        m.schema.classNames = {"only one"};
        QCOMPARE(errorText([&] { skynnet::saveModel(path, m); }),
                 QString::fromStdString("cannot save " + path + ": 1 class names for a binary network with 1 outputs"));
        m.schema.classNames = {"no", "yes"};
        skynnet::saveModel(path, m);
        QCOMPARE(skynnet::loadModel(path).schema.classNames, m.schema.classNames);

        // Headers written by something else: the loader names the field or the kind.
        auto file = skynnet::loadModelFile(path);
        file.header["weightsBlock"] = 3;
        skynnet::saveModelFile(path, file);
        QCOMPARE(errorText([&] { skynnet::loadModel(path); }),
                 QString::fromStdString(path + ": weightsBlock must be the index of one of the file's 1 data blocks"));
        file.header["weightsBlock"] = 0;
        file.blocks[0].push_back(4);
        skynnet::saveModelFile(path, file);
        QCOMPARE(errorText([&] { skynnet::loadModel(path); }),
                 QString::fromStdString(path + ": the network has 3 parameters but 4 weights are stored"));
        file.header["kind"] = "combined";
        skynnet::saveModelFile(path, file);
        QCOMPARE(errorText([&] { skynnet::loadModel(path); }),
                 QString::fromStdString(
                     path + " holds a model of kind 'combined', which this build cannot load as a single network"));
        skynnet::saveModelFile(path, {Json::array(), {}});
        QCOMPARE(errorText([&] { skynnet::loadModel(path); }),
                 QString::fromStdString(path + ": the top-level value must be an object, not an array"));
    }

    void atomicWriteReplacesWholeFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("out.txt").toStdString();
        skynnet::writeFileAtomically(path, "old content");
        QCOMPARE(skynnet::readFile(path), std::string("old content"));
        skynnet::writeFileAtomically(path, std::string("new\0content", 11));
        QCOMPARE(skynnet::readFile(path), std::string("new\0content", 11));
        QCOMPARE(entries(dir.path()), QStringList{"out.txt"});
        // Through a symlink: the destination is replaced and the link stays a link.
        const QString link = dir.filePath("link.txt");
        QVERIFY(QFile::link(QString::fromStdString(path), link));
        skynnet::writeFileAtomically(link.toStdString(), "via link");
        QCOMPARE(skynnet::readFile(path), std::string("via link"));
        QVERIFY(QFileInfo(link).isSymLink());
    }

    void atomicWriteFailureLeavesNoTrace() {
        QTemporaryDir dir;
        const std::string keep = dir.filePath("keep.txt").toStdString();
        skynnet::writeFileAtomically(keep, "precious");
        const QStringList before = entries(dir.path());

        // Parent is a regular file: nothing can be created (works as root too).
        const std::string underFile = keep + "/model.skynnet";
        QCOMPARE(errorText([&] { skynnet::writeFileAtomically(underFile, "x"); }),
                 QString::fromStdString("cannot save " + underFile + ": Not a directory"));
        // Target is a directory: the temporary file is written, the rename fails, the temp goes.
        QVERIFY(QDir(dir.path()).mkdir("target"));
        const std::string target = dir.filePath("target").toStdString();
        QCOMPARE(errorText([&] { skynnet::writeFileAtomically(target, "x"); }),
                 QString::fromStdString("cannot save " + target + ": Is a directory"));
        QCOMPARE(entries(dir.path()), before + QStringList{"target"});

        // A write failing half-way (file size limit, like a full disk; root cannot bypass it)
        // leaves the old content whole and removes the temporary file.
        struct rlimit old {};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        struct rlimit small = old;
        small.rlim_cur = 1000;
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        const QString e = errorText([&] { skynnet::writeFileAtomically(keep, std::string(5000, 'n')); });
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QCOMPARE(e, QString::fromStdString("cannot save " + keep + ": File too large"));
        QCOMPARE(skynnet::readFile(keep), std::string("precious"));
        QCOMPARE(entries(dir.path()), before + QStringList{"target"});

        // The same through the model file writer.
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &small), 0);
        std::signal(SIGXFSZ, SIG_IGN);
        skynnet::ModelFileContents big = smallContents();
        big.blocks.push_back(std::vector<float>(5000, 1.0f));
        const QString e2 = errorText([&] { skynnet::saveModelFile(keep, big); });
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
        QVERIFY2(e2.contains("File too large"), qPrintable(e2));
        QCOMPARE(skynnet::readFile(keep), std::string("precious"));
        QCOMPARE(entries(dir.path()), before + QStringList{"target"});
    }

    void readFileErrors() {
        QTemporaryDir dir;
        const QString missing = dir.filePath("nope.csv");
        QCOMPARE(errorText([&] { skynnet::readFile(missing.toStdString()); }), missing + " does not exist");
        QCOMPARE(errorText([&] { skynnet::readFile(dir.path().toStdString()); }),
                 dir.path() + " is a directory, not a file");
        QCOMPARE(skynnet::readFile("/dev/null"), std::string());
    }
};

QTEST_APPLESS_MAIN(TstIo)
#include "tst_io.moc"
