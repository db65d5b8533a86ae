#pragma once
// What every fuzz target treats as a finding besides crashes and sanitizer
// reports: a broken promise of the code under test. Each aborts, so that
// libFuzzer keeps the input as a crasher and the replay test fails.
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace vksim::fuzz {

// `what` names the broken promise; `detail` is the message or value involved.
[[noreturn]] inline void fail(std::string_view what, std::string_view detail) {
    std::fprintf(stderr, "fuzz finding: %.*s: %.*s\n", int(what.size()), what.data(), int(detail.size()),
                 detail.data());
    std::abort();
}

// Error messages are one line (asset_error.h, scene_loader.h).
inline void requireOneLine(std::string_view message) {
    if (message.find('\n') != std::string_view::npos) fail("error message spans lines", message);
    if (message.empty()) fail("error message is empty", message);
}

}  // namespace vksim::fuzz
