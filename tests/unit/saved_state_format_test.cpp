// state/saved_state.h: the bytes of a saved state round-trip, and every way
// they can be wrong is one line naming the source.
#include <cstring>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "io/fnv1a.h"
#include "state/saved_state.h"

namespace vksim {
namespace {

SavedState sample() {
    SavedState state;
    state.vksimVersion = "9.8.7";
    state.modelFingerprint = 0x0123456789abcdefull;
    state.modelDescription = "1 object(s) (cloth), 4 particles, 0 bodies, from a.json";
    state.frame = 42;
    state.sections = {{"positions (x, 1/m)", std::string(64, '\x01')}, {"empty", ""}, {"velocities", "\x00\xff"}};
    return state;
}

std::string errorOf(const std::string& bytes) {
    try {
        decodeState(bytes, "s.state");
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(SavedStateFormat, RoundTrips) {
    const SavedState state = sample();
    const SavedState back = decodeState(encodeState(state), "s.state");
    EXPECT_EQ(back.vksimVersion, state.vksimVersion);
    EXPECT_EQ(back.modelFingerprint, state.modelFingerprint);
    EXPECT_EQ(back.modelDescription, state.modelDescription);
    EXPECT_EQ(back.frame, state.frame);
    ASSERT_EQ(back.sections.size(), state.sections.size());
    for (size_t k = 0; k < state.sections.size(); ++k) {
        EXPECT_EQ(back.sections[k].name, state.sections[k].name);
        EXPECT_EQ(back.sections[k].bytes, state.sections[k].bytes);
    }
}

constexpr const char* kDamaged = "s.state: damaged or truncated vksim state: its checksum does not match its bytes";

TEST(SavedStateFormat, EveryTruncationIsRefused) {
    const std::string bytes = encodeState(sample());
    for (size_t size = 8; size < bytes.size(); ++size) {
        const std::string message = errorOf(bytes.substr(0, size));
        EXPECT_TRUE(message == kDamaged || message == fmt::format("s.state: truncated vksim state: {} bytes", size))
            << size << ": " << message;
    }
}

// The checksum of a state edited by hand, so that what it checks is what is parsed.
std::string withChecksum(std::string bytes) {
    const std::string_view body = std::string_view(bytes).substr(0, bytes.size() - 8);
    const uint64_t checksum = fnv1a64(body);
    std::memcpy(bytes.data() + body.size(), &checksum, 8);
    return bytes;
}

TEST(SavedStateFormat, DamageIsRefused) {
    const std::string bytes = encodeState(sample());
    EXPECT_EQ(errorOf("hello"), "s.state: not a vksim state (it does not start with \"VKSIMST\")");
    for (size_t at = 12; at < bytes.size(); at += 7) {  // every field, the checksum's bytes too
        std::string flipped = bytes;
        flipped[at] ^= 0x20;
        EXPECT_EQ(errorOf(flipped), kDamaged) << at;
    }
    EXPECT_EQ(errorOf(bytes + "x"), kDamaged);
    const std::string body = bytes.substr(0, bytes.size() - 8);
    EXPECT_EQ(errorOf(withChecksum(body + "xyz" + std::string(8, '\0'))),
              "s.state: malformed vksim state: 3 bytes after its last section");
    std::string newer = bytes;
    newer[8] = static_cast<char>(kStateFormatVersion + 1);  // the format version, first after the magic
    EXPECT_EQ(errorOf(newer), fmt::format("s.state: a vksim state of format version {}; this vksim reads version {}",
                                          kStateFormatVersion + 1, kStateFormatVersion));
}

TEST(SavedStateFormat, HugeSizesAreTruncationsNotAllocations) {
    std::string bytes = encodeState(sample());
    // The first section's name length: after the magic, version, vksim
    // version, fingerprint, description, frame and count.
    const size_t at = 8 + 4 + 4 + 5 + 8 + 4 + sample().modelDescription.size() + 8 + 4;
    bytes[at + 3] = '\x7f';
    EXPECT_EQ(errorOf(bytes), kDamaged);
    EXPECT_TRUE(errorOf(withChecksum(bytes)).starts_with("s.state: malformed vksim state: it ends inside the name of "
                                                         "section 0"))
        << errorOf(withChecksum(bytes));
}

}  // namespace
}  // namespace vksim
