#pragma once
// The check every shape and mass routine makes of its sizes and masses.
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace vksim {

// Throws std::invalid_argument ("<what> must be finite and > 0, not <value>")
// unless `value` is finite and positive.
inline void requirePositive(double value, const char* what) {
    if (!(value > 0.0) || !std::isfinite(value))
        throw std::invalid_argument(fmt::format("{} must be finite and > 0, not {}", what, value));
}

}  // namespace vksim
