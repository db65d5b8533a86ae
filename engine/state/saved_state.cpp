#include "state/saved_state.h"

#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "io/binary_fields.h"
#include "io/fnv1a.h"

namespace vksim {
namespace {

constexpr std::string_view kMagic = "VKSIMST\n";

void putString(std::string& out, std::string_view text) {
    binary::put<uint32_t>(out, static_cast<uint32_t>(text.size()));
    out.append(text);
}

void putBytes(std::string& out, std::string_view bytes) {
    binary::put<uint64_t>(out, bytes.size());
    out.append(bytes);
}

// Reads the fields in order; the first that runs past the end throws.
class Reader {
public:
    Reader(std::string_view bytes, std::string_view source) : in_(bytes), source_(source) {}

    template <typename T>
    T value(std::string_view what) {
        const std::optional<T> v = binary::take<T>(in_, offset_);
        if (!v) truncated(what);
        return *v;
    }
    std::string text(std::string_view what) { return std::string(span(value<uint32_t>(what), what)); }
    std::string bytes(std::string_view what) { return std::string(span(value<uint64_t>(what), what)); }
    std::size_t offset() const { return offset_; }

private:
    std::string_view span(uint64_t size, std::string_view what) {
        if (size > in_.size() - offset_) truncated(what);
        const std::string_view out = in_.substr(offset_, size);
        offset_ += size;
        return out;
    }
    // Past the checksum, only bytes made to match it get here.
    [[noreturn]] void truncated(std::string_view what) const {
        throw std::invalid_argument(
            fmt::format("{}: malformed vksim state: it ends inside {} (byte {} of {})", source_, what, offset_,
                        in_.size()));
    }

    std::string_view in_;
    std::string_view source_;
    std::size_t offset_ = 0;
};

}  // namespace

std::string encodeState(const SavedState& state) {
    std::string out(kMagic);
    binary::put<uint32_t>(out, kStateFormatVersion);
    putString(out, state.vksimVersion);
    binary::put<uint64_t>(out, state.modelFingerprint);
    putString(out, state.modelDescription);
    binary::put<uint64_t>(out, state.frame);
    binary::put<uint32_t>(out, static_cast<uint32_t>(state.sections.size()));
    for (const StateSection& section : state.sections) {
        putString(out, section.name);
        putBytes(out, section.bytes);
    }
    binary::put<uint64_t>(out, fnv1a64(out));
    return out;
}

SavedState decodeState(std::string_view bytes, std::string_view source) {
    if (!bytes.starts_with(kMagic))
        throw std::invalid_argument(fmt::format("{}: not a vksim state (it does not start with \"VKSIMST\")", source));
    constexpr std::size_t kVersionEnd = kMagic.size() + sizeof(uint32_t);
    if (bytes.size() < kVersionEnd + sizeof(uint64_t))
        throw std::invalid_argument(fmt::format("{}: truncated vksim state: {} bytes", source, bytes.size()));
    // The version first, so that a state of another format says so; then
    // the checksum, so that nothing damaged is parsed.
    std::size_t at = kMagic.size();
    const auto version = *binary::take<uint32_t>(bytes, at);
    if (version != kStateFormatVersion)
        throw std::invalid_argument(fmt::format("{}: a vksim state of format version {}; this vksim reads version {}",
                                                source, version, kStateFormatVersion));
    const std::size_t checked = bytes.size() - sizeof(uint64_t);
    at = checked;
    if (*binary::take<uint64_t>(bytes, at) != fnv1a64(bytes.substr(0, checked)))
        throw std::invalid_argument(
            fmt::format("{}: damaged or truncated vksim state: its checksum does not match its bytes", source));
    Reader in(bytes.substr(0, checked), source);
    in.value<uint64_t>("the magic");
    in.value<uint32_t>("the format version");
    SavedState state;
    state.vksimVersion = in.text("the vksim version");
    state.modelFingerprint = in.value<uint64_t>("the model fingerprint");
    state.modelDescription = in.text("the model description");
    state.frame = in.value<uint64_t>("the frame");
    const auto count = in.value<uint32_t>("the section count");
    for (uint32_t k = 0; k < count; ++k) {
        StateSection section;
        section.name = in.text(fmt::format("the name of section {}", k));
        section.bytes = in.bytes(fmt::format("section {} (\"{}\")", k, section.name));
        state.sections.push_back(std::move(section));
    }
    if (in.offset() != checked)
        throw std::invalid_argument(
            fmt::format("{}: malformed vksim state: {} bytes after its last section", source, checked - in.offset()));
    return state;
}

}  // namespace vksim
