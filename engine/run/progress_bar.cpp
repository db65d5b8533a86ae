#include "run/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

namespace vksim {
namespace {

constexpr int kBarWidth = 30;
// Redrawing every frame of a fast run would cost more than the frames.
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string clockTime(double seconds) {
    const auto total = static_cast<int64_t>(seconds + 0.5);
    if (total >= 3600) return fmt::format("{}:{:02d}:{:02d}", total / 3600, total / 60 % 60, total % 60);
    return fmt::format("{}:{:02d}", total / 60, total % 60);
}

}  // namespace

bool progressBarWanted(bool quiet) { return !quiet && ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, uint64_t totalFrames)
    : label_(std::move(label)), total_(std::max<uint64_t>(totalFrames, 1)), start_(Clock::now()) {
    lastDraw_ = start_ - kRedrawInterval;
    draw();
}

ProgressBar::~ProgressBar() {
    std::fputs("\r\033[K", stderr);  // carriage return, erase to the end of the line
    std::fflush(stderr);
}

void ProgressBar::frameCollected(uint32_t /*slot*/, uint64_t /*frame*/) {
    ++done_;
    if (done_ == total_ || Clock::now() - lastDraw_ >= kRedrawInterval) draw();
}

void ProgressBar::draw() {
    lastDraw_ = Clock::now();
    const double fraction = std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_));
    const auto filled = static_cast<int>(fraction * kBarWidth);
    const double elapsed = std::chrono::duration<double>(lastDraw_ - start_).count();
    const std::string eta =
        done_ == 0 ? "--:--" : clockTime(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
    fmt::print(stderr, "\r\033[K{} [{}{}] {}/{} frames {:3.0f}%  {} elapsed, ETA {}", label_,
               std::string(static_cast<size_t>(filled), '#'), std::string(static_cast<size_t>(kBarWidth - filled), '.'),
               done_, total_, 100.0 * fraction, clockTime(elapsed), eta);
    std::fflush(stderr);
}

}  // namespace vksim
