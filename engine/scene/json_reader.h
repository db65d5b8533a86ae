#pragma once
// Typed, validated reading of a JSON document written by a person. Every
// value is read through a Field, which knows its JSON pointer (RFC 6901,
// e.g. "/objects/0/mass"), so that every complaint names the exact value:
//
//   /objects/0/mass: expected a number > 0, got -1
//   /colliders/1/radius: unknown key "radius" for a box collider; allowed keys: ...
//
// Errors are thrown as JsonInputError; the caller adds the file name.
// scene_loader.cpp is the main user; nothing here knows about scenes.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "io/quoted_input.h"

namespace vksim::json_input {

using Json = nlohmann::json;

// what() is one line: "<where>: <problem>", where <where> is a JSON pointer
// or "line L, column C" for syntax errors.
class JsonInputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Arrays and objects nested deeper than this are refused while parsing:
// scenes need a handful of levels, and the recursive code that walks a parsed
// value (dumping, destroying, comparing) would overflow the stack at tens of
// thousands.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Parses JSON text with // and /* */ comments allowed. Besides syntax errors
// (reported by line and column) it rejects what nlohmann::json would accept
// silently: a key repeated in one object (the first value would be lost),
// numbers too large for a double such as 1e999 (both reported by pointer),
// nesting deeper than kMaxJsonDepth, and a NUL byte anywhere (nlohmann takes
// it for the end of the input, so anything after it would be ignored).
Json parseJsonText(std::string_view text);

// Input quoted in a message (io/quoted_input.h): a 16 MiB key must not
// become a 16 MiB message.
using vksim::quoteInput;

// A value inside a parsed document and its JSON pointer ("" is the root).
class Field {
public:
    Field(const Json& value, std::string pointer) : value_(&value), pointer_(std::move(pointer)) {}

    const Json& json() const { return *value_; }
    const std::string& pointer() const { return pointer_; }
    // The pointer as shown in messages: "/" for the root; long keys and deep
    // paths are shortened (displayPointer).
    std::string location() const;

    Field member(std::string_view key) const;  // the caller has checked that it exists
    Field element(std::size_t index) const;

    // Throws "<location>: expected <expectation>, got <this value>".
    [[noreturn]] void failExpected(std::string_view expectation) const;
    // Throws "<location>: <problem>".
    [[noreturn]] void fail(std::string_view problem) const;

private:
    const Json* value_;
    std::string pointer_;
};

// The members of one JSON object, checked against the keys allowed there.
// Constructing it rejects a value that is not an object and any key not in
// `allowedKeys` (naming the closest allowed key when it looks like a typo).
class ObjectFields {
public:
    // `context` completes the unknown-key message, e.g. "for a box collider".
    ObjectFields(const Field& object, std::vector<std::string_view> allowedKeys,
                 std::string_view context = {});

    const Field& self() const { return object_; }
    bool has(std::string_view key) const;
    std::optional<Field> optional(std::string_view key) const;
    Field required(std::string_view key) const;

private:
    Field object_;
    std::vector<std::string_view> allowedKeys_;
};

// An interval of accepted numbers; NaN and infinities are never accepted.
struct NumberRange {
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
    bool maxExclusive = false;

    bool contains(double value) const;
    std::string describe() const;  // "a finite number", "a number > 0", "a number in [0, 1]"
};

inline NumberRange anyFinite() { return {}; }
inline NumberRange atLeast(double min) { return {.min = min}; }
inline NumberRange greaterThan(double min) { return {.min = min, .minExclusive = true}; }
inline NumberRange closedInterval(double min, double max) { return {.min = min, .max = max}; }

float readFloat(const Field& field, const NumberRange& range = anyFinite());
// An integer literal (4, not 4.0) in [min, max]. `expectation` replaces the
// default "an integer in [min, max]" in the message when the caller can say
// more about what the number means.
int64_t readInteger(const Field& field, int64_t min, int64_t max, std::string_view expectation = {});
bool readBool(const Field& field);
std::string readString(const Field& field);
std::string readNonEmptyString(const Field& field);
// One of `choices`; returns its index. The error lists the choices.
std::size_t readChoice(const Field& field, const std::vector<std::string_view>& choices);

// A JSON array of any length: its elements as Fields.
std::vector<Field> readArray(const Field& field);
// A JSON array of exactly `count` numbers, each in `range`.
std::vector<float> readFloats(const Field& field, std::size_t count, const NumberRange& range = anyFinite());
glm::vec2 readVec2(const Field& field, const NumberRange& range = anyFinite());
glm::vec3 readVec3(const Field& field, const NumberRange& range = anyFinite());

// A JSON pointer as shown in messages: "/" for the root, each key cut to a
// few dozen bytes and, past a dozen levels, the middle levels left out.
std::string displayPointer(std::string_view pointer);

// The value as quoted in messages: short, one line ("-1", "string \"nan\"", "an object").
std::string describeValue(const Json& value);

}  // namespace vksim::json_input
