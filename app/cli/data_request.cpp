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
