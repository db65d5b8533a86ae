#include "app/output_guard.h"

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "io/quoted_input.h"
#include "io/write_file.h"

namespace vksim {
namespace {

std::vector<std::string> inputFiles(const Scene& scene) {
    std::vector<std::string> files{scene.path};
    for (const ClothObject& cloth : scene.cloths)
        if (cloth.mesh) files.push_back(cloth.mesh->file);
    for (const SolidObject& solid : scene.solids)
        if (!solid.meshFile.empty()) files.push_back(solid.meshFile);
    for (const ColliderDesc& collider : scene.colliders)
        if (!collider.meshFile.empty()) files.push_back(collider.meshFile);
    return files;
}

}  // namespace

void refuseOutputsOverInputs(const RunOptions& options, const Scene& scene) {
    const std::vector<std::string> inputs = inputFiles(scene);
    for (const std::string* output :
         {&options.traceFile, &options.timingsFile, &options.screenshotFile, &options.posesFile, &options.saveStateFile}) {
        if (output->empty()) continue;
        for (const std::string& input : inputs) {
            std::error_code error;  // a missing output is no input: not equivalent
            if (std::filesystem::equivalent(*output, input, error))
                throw WriteError(*output, "it is the run's input " + clipInput(input));
        }
    }
}

}  // namespace vksim
