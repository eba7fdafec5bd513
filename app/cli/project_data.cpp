#include "project_data.h"

namespace skynnet::cli {

PreparedData prepareProjectData(const ProjectDataSource& s) {
    // The project's data seed and fractions, its messages naming the project file's fields.
    return prepareData(skynnet::runDataOf(s));
}

}  // namespace skynnet::cli
