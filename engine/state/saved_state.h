#pragma once
// A world's state as bytes (World::saveState, --save-state, Python's
// save_state): every GPU buffer that carries the simulation from one frame
// to the next, each a named section, under a header that says which vksim
// wrote it, at which frame, and of which model. Loading it into a world of
// the same model restores that state bit for bit, so the frames after it
// are the frames the saving world would have stepped.
//
// Layout, in the machine's byte order (docs/embedding.md, "Saving and
// restoring state"):
//   "VKSIMST\n"  u32 format version  u32 length + vksim version
//   u64 model fingerprint  u32 length + model description  u64 frame
//   u32 section count, each: u32 length + name, u64 size + bytes
//   u64 FNV-1a of everything before it
// The format version changes whenever what a section holds changes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vksim {

inline constexpr uint32_t kStateFormatVersion = 1;

struct StateSection {
    std::string name;   // the buffer's debug name
    std::string bytes;  // its whole contents
};

struct SavedState {
    std::string vksimVersion;      // of the vksim that wrote it
    uint64_t modelFingerprint = 0;  // what it can be loaded into (World's model)
    std::string modelDescription;  // the same in words, for the refusal
    uint64_t frame = 0;            // frames stepped before it
    std::vector<StateSection> sections;
};

std::string encodeState(const SavedState& state);

// Throws std::invalid_argument, one line starting with `source` (a file
// name, or "state" for bytes from memory): not a vksim state, of another
// format version, damaged or truncated (the checksum, checked before
// anything else is read), or malformed (bytes made to match their checksum).
// The vksim version is the caller's to check.
SavedState decodeState(std::string_view bytes, std::string_view source);

}  // namespace vksim
