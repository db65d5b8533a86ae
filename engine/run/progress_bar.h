#pragma once
// A progress bar with an estimate of the time left, on stderr, for long
// headless runs and benchmarks. Only for a person watching: shown when
// stderr is a terminal, never in logs or pipes (progressBarWanted).
#include <chrono>
#include <cstdint>
#include <string>

#include "run/frame_observer.h"

namespace vksim {

// True when stderr is a terminal and the run is not --quiet.
bool progressBarWanted(bool quiet);

class ProgressBar : public FrameObserver {
public:
    // `label` leads the line; `totalFrames` is 100%.
    ProgressBar(std::string label, uint64_t totalFrames);
    // Erases the line, so whatever is printed next starts clean.
    ~ProgressBar() override;
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    void frameCollected(uint32_t slot, uint64_t frame) override;

private:
    using Clock = std::chrono::steady_clock;
    void draw();

    std::string label_;
    uint64_t total_ = 0;
    uint64_t done_ = 0;
    Clock::time_point start_;
    Clock::time_point lastDraw_;
};

}  // namespace vksim
