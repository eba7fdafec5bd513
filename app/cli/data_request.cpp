#include "data_request.h"

#include "core/error.h"
#include "data/shape_text.h"

namespace skynnet::cli {
namespace {

// An engine parser's Error as the usage error of the option the text came from.
template <typename F>
auto parsedText(const std::string& name, F parse) -> decltype(parse()) {
    try {
        return parse();
    } catch (const Error& e) {
        Args::fail(name, e.what());
    }
}

}  // namespace

OptionSpec strictImagesSpec() {
    return {"--strict-images", "", "an unreadable image is an error (default: skipped with a warning)"};
}

const std::vector<OptionSpec>& imageOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        {"--image-size", "HxW", "image folders: resize every image to H x W pixels (default: the first image's size)"},
        {"--channels", "1|3", "image folders: 1 (gray) or 3 (RGB), converting as needed (default: as the first image)"},
        strictImagesSpec(),
        {"--sample-shape", "CxHxW", "CSV: the layout of a row's feature columns, e.g. 1x28x28 (default: flat)"},
    };
    return specs;
}

OptionSpec textColumnSpec() {
    return {"--text-column", "NAME",
            "CSV text data: the column of the texts, which becomes the model's only input (the other feature "
            "columns are not used); a folder with one subfolder of .txt files per class is text data without it"};
}

const std::vector<OptionSpec>& textOptionSpecs() {
    static const std::vector<OptionSpec> specs = {
        textColumnSpec(),
        {"--vocab", "N",
         "text data: the vocabulary, the N most frequent tokens of the training rows, padding and unknown ids "
         "included (default " +
             std::to_string(TextSettings{}.vocabularySize) + ")"},
        {"--max-length", "L",
         "text data: tokens per text; longer texts keep their first L, shorter ones are padded in front (default " +
             std::to_string(TextSettings{}.maxLength) + ")"},
        {"--as-sequence", "rows", "one-channel images (1xHxW) read as H steps of W features, e.g. for gru layers"},
    };
    return specs;
}

TextSettings textSettings(const Args& args, const DataRequest& data) {
    TextSettings t;
    const bool text = !data.textColumn.empty() || dataKind(data.path) == DataKind::TextFolder;
    for (const char* name : {"--vocab", "--max-length"})
        if (args.has(name) && !text)
            Args::fail(name, "only applies to text data (--text-column, or a folder with one subfolder of .txt files "
                             "per class), and " +
                                 data.path + " is not read as text");
    t.vocabularySize = args.positiveInt("--vocab", t.vocabularySize);
    if (t.vocabularySize < 3 || t.vocabularySize > maxVocabularySize)
        Args::fail("--vocab", "expected 3 (padding, unknown and one token) to " + std::to_string(maxVocabularySize) +
                                  ", got " + std::to_string(t.vocabularySize));
    t.maxLength = args.positiveInt("--max-length", t.maxLength);
    if (t.maxLength > maxTextLength)
        Args::fail("--max-length",
                   "expected at most " + std::to_string(maxTextLength) + ", got " + std::to_string(t.maxLength));
    return t;
}

DataRequest dataRequest(const Args& args, const DataOptionNames& names) {
    DataRequest r;
    r.option = names.path;
    r.path = args.required(names.path);
    r.labels = args.text(names.labels, "");
    r.target = args.text(names.target, "");
    r.labelsOption = names.labels;
    r.targetOption = names.target;
    if (const auto size = args.text("--image-size")) {
        const ImageSize s = parsedText("--image-size", [&] { return parseImageSize(*size); });
        r.image.height = s.height;
        r.image.width = s.width;
    }
    if (args.has("--channels")) {
        r.image.channels = args.positiveInt("--channels", 1);
        if (r.image.channels != 1 && r.image.channels != 3)
            Args::fail("--channels", "expected 1 (gray) or 3 (RGB), got '" + *args.text("--channels") + "'");
    }
    r.image.strict = args.flag("--strict-images");
    for (const char* name : {"--image-size", "--channels", "--strict-images"})
        if (args.has(name)) {
            r.imageOption = name;  // the first one given, for checkDataRequest's message
            break;
        }
    if (const auto shape = args.text("--sample-shape"))
        r.sampleShape = parsedText("--sample-shape", [&] { return parseSampleShape(*shape); });
    r.textColumn = args.text("--text-column", "");
    if (const auto how = args.text("--as-sequence")) {
        if (*how != "rows") Args::fail("--as-sequence", "expected rows, got '" + *how + "'");
        r.sequenceRows = true;
    }
    return r;
}

void checkRequestUsage(const DataRequest& request) {
    try {
        checkDataRequest(request);
    } catch (const Error& e) {
        throw UsageError(e.what());
    }
}

}  // namespace skynnet::cli
