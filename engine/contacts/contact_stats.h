#pragma once
// What the contact detection found (gpu::ContactStats), in words: for the
// viewer's Contacts panel and the end of a headless run.
#include <string>
#include <vector>

#include "shaders/contacts/contact_types.h"

namespace vksim {

// One line each: the pairs, the colours, what was left or did not fit.
std::vector<std::string> describeContactStats(const gpu::ContactStats& stats);

}  // namespace vksim
