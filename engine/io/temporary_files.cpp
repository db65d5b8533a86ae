#include "io/temporary_files.h"

#include <atomic>
#include <cstring>

#include <unistd.h>

namespace vksim {
namespace {

// Outputs open at once: a trace, a timings file, a screenshot, an exported
// mesh, a cache, bench results; twice that for head-room.
constexpr int kSlots = 16;
constexpr std::size_t kMaxPath = 4096;

enum : int { kFree, kFilling, kRegistered };
struct Slot {
    std::atomic<int> state{kFree};
    char path[kMaxPath];
};
Slot gSlots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

}  // namespace

int registerTemporaryFile(const char* path) noexcept {
    const std::size_t length = std::strlen(path);
    if (length >= kMaxPath) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (!gSlots[i].state.compare_exchange_strong(expected, kFilling)) continue;
        std::memcpy(gSlots[i].path, path, length + 1);
        gSlots[i].state.store(kRegistered, std::memory_order_release);
        return i;
    }
    return -1;
}

void unregisterTemporaryFile(int slot) noexcept {
    if (slot >= 0 && slot < kSlots) gSlots[slot].state.store(kFree, std::memory_order_release);
}

void removeTemporaryFilesNow() noexcept {
    for (Slot& slot : gSlots)
        if (slot.state.load(std::memory_order_acquire) == kRegistered) ::unlink(slot.path);
}

}  // namespace vksim
