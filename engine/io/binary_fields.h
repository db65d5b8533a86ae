#pragma once
// Fixed-size values in and out of the byte strings of cache files, in the
// machine's byte order (caches are local to the machine that wrote them; the
// magic and the version fields reject anything else).
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace vksim::binary {

template <typename T>
void put(std::string& out, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

// Reads a T at `offset` and advances it; nothing when the bytes run out.
template <typename T>
std::optional<T> take(std::string_view in, std::size_t& offset) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (in.size() < offset || in.size() - offset < sizeof(T)) return std::nullopt;
    T value;
    std::memcpy(&value, in.data() + offset, sizeof(T));
    offset += sizeof(T);
    return value;
}

}  // namespace vksim::binary
