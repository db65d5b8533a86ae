// Pixel checks of --screenshot images, for the window tests (viewer_tests.cmake):
//
//   vksim_png_check diff A.png B.png MAX_DIFF   the same frame from two paths agrees:
//                                               max per-channel difference <= MAX_DIFF
//   vksim_png_check scene A.png SCENE.json N    the default scene after N frames: not
//                                               blank, the ball and the cloth where the
//                                               scene's camera puts them
//   vksim_png_check content A.png [B.png]       not blank (a display mode drew something)
//                                               and, given B, differs from it (the mode
//                                               changed the picture)
//
// Prints the statistics it judged by; exit status 0 pass, 1 fail, 2 usage.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glm/glm.hpp>

#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include "render/orbit_camera.h"
#include "scene/scene_loader.h"

namespace {

struct Image {
    int width = 0, height = 0;
    std::vector<uint8_t> rgba;
    glm::vec3 at(int x, int y) const {
        const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
        return {float(p[0]), float(p[1]), float(p[2])};
    }
};

Image load(const char* path) {
    Image image;
    int channels = 0;
    uint8_t* data = stbi_load(path, &image.width, &image.height, &channels, 4);
    if (!data) {
        fmt::print(stderr, "cannot read {}\n", path);
        std::exit(1);
    }
    image.rgba.assign(data, data + size_t(image.width) * image.height * 4);
    stbi_image_free(data);
    return image;
}

float luminance(glm::vec3 c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

// Spread of luminance over the whole image: a blank (one-colour) image has 0.
bool checkNotBlank(const Image& image) {
    double sum = 0, sum2 = 0;
    const size_t n = size_t(image.width) * image.height;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const double l = luminance(image.at(x, y));
            sum += l;
            sum2 += l * l;
        }
    const double mean = sum / n;
    const double sd = std::sqrt(std::max(0.0, sum2 / n - mean * mean));
    fmt::print("image {}x{}: luminance mean {:.1f}, standard deviation {:.1f} (blank: 0; need > 8)\n", image.width,
               image.height, mean, sd);
    return sd > 8.0;
}

struct RegionStats {
    glm::vec3 mean{0.0f};
    int pixels = 0;
};

RegionStats disc(const Image& image, glm::vec2 centre, float radius) {
    RegionStats stats;
    for (int y = int(centre.y - radius); y <= int(centre.y + radius); ++y)
        for (int x = int(centre.x - radius); x <= int(centre.x + radius); ++x) {
            if (x < 0 || y < 0 || x >= image.width || y >= image.height) continue;
            if (glm::length(glm::vec2(x, y) - centre) > radius) continue;
            stats.mean += image.at(x, y);
            ++stats.pixels;
        }
    if (stats.pixels) stats.mean /= float(stats.pixels);
    return stats;
}

// World point -> pixel with the scene's camera at the image's size (the
// projection the viewer and the headless screenshot use).
glm::vec2 project(const vksim::CameraView& view, const Image& image, glm::vec3 p) {
    const glm::vec4 clip = view.viewProjection * glm::vec4(p, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return {(ndc.x * 0.5f + 0.5f) * image.width, (ndc.y * 0.5f + 0.5f) * image.height};
}

int sceneCheck(const Image& image, const std::string& scenePath, int frames) {
    const vksim::Scene scene = vksim::loadScene(scenePath);
    const vksim::OrbitCamera camera(scene.camera);
    const vksim::CameraView view = camera.cameraView({uint32_t(image.width), uint32_t(image.height)});
    bool ok = checkNotBlank(image);

    // The ball: its centre, and its projected radius from a point on its
    // silhouette (offset along the camera's right vector). The disc checked is
    // the lower half of the ball's image, which the cloth (above it in the
    // first frames) cannot cover.
    for (const vksim::ColliderDesc& c : scene.colliders) {
        if (c.shape != vksim::ColliderShape::Sphere) continue;
        const glm::vec3 right = glm::normalize(glm::cross(scene.camera.target - camera.eye(), glm::vec3(0, 1, 0)));
        const glm::vec2 centre = project(view, image, c.position);
        const float radius = glm::length(project(view, image, c.position + c.radius * right) - centre);
        const RegionStats ball = disc(image, centre + glm::vec2(0, 0.45f * radius), 0.35f * radius);
        // Collider albedo is blue-grey (b > r); the ground and the cloth are not.
        const float blueness = ball.mean.b - ball.mean.r;
        fmt::print("ball '{}': centre at pixel ({:.0f}, {:.0f}), radius {:.0f} px; lower disc of {} px: mean rgb "
                   "({:.0f}, {:.0f}, {:.0f}), b - r = {:.1f} (need > 8)\n",
                   c.name, centre.x, centre.y, radius, ball.pixels, ball.mean.r, ball.mean.g, ball.mean.b, blueness);
        ok = ok && ball.pixels > 50 && blueness > 8.0f;
    }

    // Each cloth: its centre after `frames` frames of free fall (the pins hold
    // the far edge, so the centre falls a little less; the disc is small
    // against the cloth's image), where the cloth's own colour must show.
    for (const vksim::ClothObject& object : scene.cloths) {
        const float t = float(frames) * scene.solver.timeStep;
        const glm::vec3 fallen = object.position + 0.5f * t * t * scene.solver.gravity;
        const glm::vec2 centre = project(view, image, fallen);
        const RegionStats cloth = disc(image, centre, 12.0f);
        const glm::vec3 expected = glm::normalize(object.color);
        const float match = glm::dot(glm::normalize(cloth.mean + 1e-3f), expected);
        fmt::print("cloth '{}': centre after {} frames at pixel ({:.0f}, {:.0f}); disc of {} px: mean rgb ({:.0f}, "
                   "{:.0f}, {:.0f}); cosine to its colour {:.3f} (need > 0.97; the grey ground gives {:.3f})\n",
                   object.name, frames, centre.x, centre.y, cloth.pixels, cloth.mean.r, cloth.mean.g, cloth.mean.b,
                   match, glm::dot(glm::normalize(glm::vec3(1.0f)), expected));
        ok = ok && cloth.pixels > 50 && match > 0.97f;
    }
    fmt::print("{}\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

int diffCheck(const Image& a, const Image& b, int maxAllowed) {
    if (a.width != b.width || a.height != b.height) {
        fmt::print("sizes differ: {}x{} and {}x{}\nFAIL\n", a.width, a.height, b.width, b.height);
        return 1;
    }
    int maxDiff = 0;
    double sum = 0;
    size_t differing = 0;
    for (size_t i = 0; i < a.rgba.size(); i += 4) {
        int pixelMax = 0;
        for (int c = 0; c < 3; ++c) {
            const int d = std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c]));
            pixelMax = std::max(pixelMax, d);
            sum += d;
        }
        maxDiff = std::max(maxDiff, pixelMax);
        differing += pixelMax > 0;
    }
    const double mean = sum / (a.rgba.size() / 4 * 3);
    fmt::print("per-channel difference: max {}, mean {:.4f}; {} of {} pixels differ (allowed max {})\n", maxDiff,
               mean, differing, a.rgba.size() / 4, maxAllowed);
    const bool ok = maxDiff <= maxAllowed;
    fmt::print("{}\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string command = argc > 1 ? argv[1] : "";
    try {
        if (command == "diff" && argc == 5) return diffCheck(load(argv[2]), load(argv[3]), std::atoi(argv[4]));
        if (command == "scene" && argc == 5) return sceneCheck(load(argv[2]), argv[3], std::atoi(argv[4]));
        if (command == "content" && (argc == 3 || argc == 4)) {
            const Image image = load(argv[2]);
            bool ok = checkNotBlank(image);
            if (argc == 4) {
                const Image other = load(argv[3]);
                size_t differing = 0;
                for (size_t i = 0; i + 3 < std::min(image.rgba.size(), other.rgba.size()); i += 4)
                    differing += image.rgba[i] != other.rgba[i] || image.rgba[i + 1] != other.rgba[i + 1] ||
                                 image.rgba[i + 2] != other.rgba[i + 2];
                fmt::print("{} pixels differ from {} (need > 1000)\n", differing, argv[3]);
                ok = ok && differing > 1000;
            }
            fmt::print("{}\n", ok ? "PASS" : "FAIL");
            return ok ? 0 : 1;
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}\n", e.what());
        return 1;
    }
    fmt::print(stderr, "usage: vksim_png_check diff A B MAX | scene A SCENE N | content A [B]\n");
    return 2;
}
