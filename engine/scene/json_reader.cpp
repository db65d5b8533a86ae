#include "scene/json_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_set>

#include <fmt/format.h>

namespace vksim::json_input {
namespace {

// ---------------------------------------------------------------------------
// Parsing: a first SAX pass that knows where it is in the document.

// RFC 6901: "~" and "/" inside a key are written "~0" and "~1".
std::string escapePointerToken(std::string_view key) {
    std::string escaped;
    escaped.reserve(key.size());
    for (char c : key) {
        if (c == '~') escaped += "~0";
        else if (c == '/') escaped += "~1";
        else escaped += c;
    }
    return escaped;
}

struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};

// nlohmann reports an error at the count of bytes read, i.e. just past the
// offending character; turn that into the 1-based line and column of that
// character (columns count bytes, as nlohmann's own messages do).
TextPosition textPositionOf(std::string_view text, std::size_t bytesRead) {
    const std::size_t offending = std::min(bytesRead > 0 ? bytesRead - 1 : 0, text.size());
    TextPosition position;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offending; ++i) {
        if (text[i] == '\n') {
            ++position.line;
            lineStart = i + 1;
        }
    }
    position.column = offending - lineStart + 1;
    return position;
}

// nlohmann's what() reads "[json.exception.parse_error.101] parse error at
// line 3, column 7: syntax error while parsing value - invalid literal; ...".
// We print our own location, so keep only the part after it.
std::string_view describeSyntaxError(std::string_view what) {
    if (std::size_t column = what.find("column "); column != std::string_view::npos) {
        if (std::size_t colon = what.find(": ", column); colon != std::string_view::npos)
            what.remove_prefix(colon + 2);
    } else if (std::size_t bracket = what.find("] "); bracket != std::string_view::npos) {
        what.remove_prefix(bracket + 2);
    }
    constexpr std::string_view kRedundant = "syntax error ";
    if (what.starts_with(kRedundant)) what.remove_prefix(kRedundant.size());
    return what;
}

// Walks the document without building it, tracking the JSON pointer of the
// current value, and stops at the first repeated key or parse error.
class DocumentChecker final : public nlohmann::json_sax<Json> {
public:
    struct Failure {
        std::string pointer;     // where in the document (empty for syntax errors)
        std::size_t bytesRead = 0;
        int exceptionId = 0;     // nlohmann's error id (101 syntax, 406 number overflow, ...)
        std::string lastToken;
        std::string message;
        bool duplicateKey = false;
        bool tooDeep = false;
    };

    const Failure& failure() const { return failure_; }

    bool null() override { return beginValue(); }
    bool boolean(bool) override { return beginValue(); }
    bool number_integer(number_integer_t) override { return beginValue(); }
    bool number_unsigned(number_unsigned_t) override { return beginValue(); }
    bool number_float(number_float_t, const string_t&) override { return beginValue(); }
    bool string(string_t&) override { return beginValue(); }
    bool binary(binary_t&) override { return beginValue(); }

    bool start_object(std::size_t) override {
        beginValue();
        if (tooDeep()) return false;
        open_.push_back({.isArray = false});
        return true;
    }
    bool key(string_t& key) override {
        Container& object = open_.back();
        object.currentKey = key;
        if (!object.keysSeen.insert(key).second) {
            failure_.duplicateKey = true;
            failure_.pointer = pointer();
            return false;
        }
        return true;
    }
    bool end_object() override {
        open_.pop_back();
        return true;
    }
    bool start_array(std::size_t) override {
        beginValue();
        if (tooDeep()) return false;
        open_.push_back({.isArray = true});
        return true;
    }
    bool end_array() override {
        open_.pop_back();
        return true;
    }

    bool parse_error(std::size_t bytesRead, const std::string& lastToken,
                     const nlohmann::detail::exception& error) override {
        // The parser calls this instead of a value callback (for 406, a number
        // it could not represent), so that value has not begun yet.
        beginValue();
        failure_.pointer = pointer();
        failure_.bytesRead = bytesRead;
        failure_.exceptionId = error.id;
        failure_.lastToken = lastToken;
        failure_.message = error.what();
        return false;
    }

private:
    struct Container {
        bool isArray = false;
        std::size_t elementsBegun = 0;           // arrays
        std::string currentKey;                  // objects: key of the value being read
        std::unordered_set<std::string> keysSeen;  // objects
    };

    // Called as an array or object begins: one more level would exceed the limit.
    bool tooDeep() {
        if (open_.size() < kMaxJsonDepth) return false;
        failure_.tooDeep = true;
        failure_.pointer = pointer();
        return true;
    }

    bool beginValue() {
        if (!open_.empty() && open_.back().isArray) ++open_.back().elementsBegun;
        return true;
    }

    std::string pointer() const {
        std::string result;
        for (const Container& container : open_) {
            result += '/';
            if (container.isArray)
                result += std::to_string(container.elementsBegun > 0 ? container.elementsBegun - 1 : 0);
            else
                result += escapePointerToken(container.currentKey);
        }
        return result;
    }

    std::vector<Container> open_;
    Failure failure_;
};

// nlohmann ends its messages with "last read: '<token>'", and a token can be
// a whole unterminated string of megabytes: keep its ends.
std::string clipLastRead(std::string_view message) {
    constexpr std::string_view kLastRead = "last read: '";
    const std::size_t from = message.find(kLastRead);
    if (from == std::string_view::npos || !message.ends_with('\'')) return clipInput(message, 200);
    const std::size_t tokenStart = from + kLastRead.size();
    const std::string_view token = message.substr(tokenStart, message.size() - 1 - tokenStart);
    return fmt::format("{}{}'", message.substr(0, tokenStart), clipInput(token, 80));
}

// The first NUL byte: JSON text never holds one (inside a string it must be
// written \u0000), and nlohmann stops reading at it as if the input ended
// there, which would accept "{...}\0anything".
void rejectNulByte(std::string_view text) {
    const std::size_t nul = text.find('\0');
    if (nul == std::string_view::npos) return;
    const TextPosition at = textPositionOf(text, nul + 1);
    throw JsonInputError(fmt::format("line {}, column {} (byte offset {}): NUL byte; a JSON file is text and has none",
                                     at.line, at.column, nul));
}

[[noreturn]] void throwParseFailure(std::string_view text, const DocumentChecker::Failure& failure) {
    const std::string shownPointer = displayPointer(failure.pointer);
    if (failure.duplicateKey)
        throw JsonInputError(fmt::format("{}: key appears twice in the same object (only one value is allowed)",
                                         shownPointer));
    if (failure.tooDeep)
        throw JsonInputError(fmt::format("{}: arrays and objects nested more than {} levels deep", shownPointer,
                                         kMaxJsonDepth));
    const TextPosition at = textPositionOf(text, failure.bytesRead);
    constexpr int kNumberOverflow = 406;
    if (failure.exceptionId == kNumberOverflow)
        throw JsonInputError(fmt::format("{}: expected a finite number, got {} (too large for a double; line {}, column {})",
                                         shownPointer, clipInput(failure.lastToken, 80), at.line, at.column));
    throw JsonInputError(fmt::format("line {}, column {}: JSON syntax error: {}", at.line, at.column,
                                     clipLastRead(describeSyntaxError(failure.message))));
}

// ---------------------------------------------------------------------------
// Messages

std::string joinQuoted(const std::vector<std::string_view>& words) {
    std::string joined;
    for (std::string_view word : words) {
        if (!joined.empty()) joined += ", ";
        joined += fmt::format("\"{}\"", word);
    }
    return joined;
}

std::string toLower(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
}

// Levenshtein distance, case-insensitive, to suggest the key a typo meant.
std::size_t editDistance(std::string_view a, std::string_view b) {
    const std::string lowerA = toLower(a);
    const std::string lowerB = toLower(b);
    std::vector<std::size_t> previous(lowerB.size() + 1);
    std::vector<std::size_t> current(lowerB.size() + 1);
    for (std::size_t j = 0; j <= lowerB.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= lowerA.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= lowerB.size(); ++j) {
            const std::size_t substitution = previous[j - 1] + (lowerA[i - 1] == lowerB[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[lowerB.size()];
}

std::optional<std::string_view> closestKey(std::string_view unknown, const std::vector<std::string_view>& allowed) {
    std::optional<std::string_view> best;
    std::size_t bestDistance = std::max<std::size_t>(2, unknown.size() / 4) + 1;  // farther is not a typo
    for (std::string_view candidate : allowed) {
        const std::size_t distance = editDistance(unknown, candidate);
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

// Shortest decimal form: 1, 0.5, 1e-06.
std::string formatNumber(double value) { return fmt::format("{}", value); }

}  // namespace

// ---------------------------------------------------------------------------

std::string displayPointer(std::string_view pointer) {
    if (pointer.empty()) return "/";
    constexpr std::size_t kMaxTokenBytes = 40, kKeptFirst = 6, kKeptLast = 6;
    std::vector<std::string> tokens;
    for (std::size_t from = 1;;) {  // pointer[0] is '/'
        const std::size_t slash = pointer.find('/', from);
        tokens.push_back(clipInput(pointer.substr(from, slash == std::string_view::npos ? slash : slash - from),
                                   kMaxTokenBytes));
        if (slash == std::string_view::npos) break;
        from = slash + 1;
    }
    std::string shown;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens.size() > kKeptFirst + kKeptLast && i == kKeptFirst) {
            shown += fmt::format("/...({} levels)...", tokens.size() - kKeptFirst - kKeptLast);
            i = tokens.size() - kKeptLast;
        }
        shown += "/" + tokens[i];
    }
    return shown;
}

Json parseJsonText(std::string_view text) {
    rejectNulByte(text);
    DocumentChecker checker;
    if (!Json::sax_parse(text, &checker, Json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/true))
        throwParseFailure(text, checker.failure());
    // The checker accepted the text, so this parse cannot fail.
    return Json::parse(text, /*cb=*/nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
}

namespace {

// Whether `value` has at most `budget` values in all (itself included) and
// no long string, so that dumping it is cheap and short. Visits at most
// `budget` values, so its recursion is bounded too.
bool isSmall(const Json& value, std::size_t& budget) {
    constexpr std::size_t kMaxStringBytes = 40;
    if (budget == 0) return false;
    --budget;
    if (value.is_string()) return value.get_ref<const std::string&>().size() <= kMaxStringBytes;
    if (value.is_array())
        return std::all_of(value.begin(), value.end(), [&](const Json& element) { return isSmall(element, budget); });
    if (value.is_object())
        for (const auto& [key, member] : value.items())
            if (key.size() > kMaxStringBytes || !isSmall(member, budget)) return false;
    return true;
}

}  // namespace

std::string describeValue(const Json& value) {
    constexpr std::size_t kMaxShown = 40;
    if (value.is_string()) return "string " + quoteInput(value.get_ref<const std::string&>(), kMaxShown);
    std::size_t budget = 12;
    const bool small = isSmall(value, budget);
    const std::string text = small ? value.dump(-1, ' ', false, Json::error_handler_t::replace) : std::string();
    switch (value.type()) {
    case Json::value_t::array:
        if (small && text.size() <= kMaxShown) return text;
        return fmt::format("an array of {} elements", value.size());
    case Json::value_t::object:
        if (small && text.size() <= kMaxShown) return text;
        return fmt::format("an object with {} keys", value.size());
    default:
        return text;
    }
}

std::string Field::location() const { return displayPointer(pointer_); }

Field Field::member(std::string_view key) const {
    return Field(value_->at(std::string(key)), pointer_ + "/" + escapePointerToken(key));
}

Field Field::element(std::size_t index) const {
    return Field(value_->at(index), pointer_ + "/" + std::to_string(index));
}

void Field::failExpected(std::string_view expectation) const {
    fail(fmt::format("expected {}, got {}", expectation, describeValue(*value_)));
}

void Field::fail(std::string_view problem) const {
    throw JsonInputError(fmt::format("{}: {}", location(), problem));
}

ObjectFields::ObjectFields(const Field& object, std::vector<std::string_view> allowedKeys, std::string_view context)
    : object_(object), allowedKeys_(std::move(allowedKeys)) {
    if (!object_.json().is_object()) object_.failExpected("an object");

    for (const auto& [key, value] : object_.json().items()) {
        if (std::find(allowedKeys_.begin(), allowedKeys_.end(), key) != allowedKeys_.end()) continue;

        std::vector<std::string_view> sorted = allowedKeys_;
        std::sort(sorted.begin(), sorted.end());
        std::string allowedList;
        for (std::string_view allowed : sorted) allowedList += (allowedList.empty() ? "" : ", ") + std::string(allowed);

        std::string problem = fmt::format("unknown key {}", quoteInput(key));
        if (!context.empty()) problem += fmt::format(" {}", context);
        // The edit distance costs key length x candidate length: a long key is no typo.
        constexpr std::size_t kMaxTypoBytes = 64;
        if (key.size() <= kMaxTypoBytes)
            if (auto suggestion = closestKey(key, allowedKeys_)) problem += fmt::format(" (did you mean \"{}\"?)", *suggestion);
        problem += fmt::format("; allowed keys: {}", allowedList);
        object_.member(key).fail(problem);
    }
}

bool ObjectFields::has(std::string_view key) const { return object_.json().contains(key); }

std::optional<Field> ObjectFields::optional(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return object_.member(key);
}

Field ObjectFields::required(std::string_view key) const {
    if (!has(key)) object_.fail(fmt::format("missing required key \"{}\"", key));
    return object_.member(key);
}

bool NumberRange::contains(double value) const {
    if (!std::isfinite(value)) return false;
    const bool aboveMin = minExclusive ? value > min : value >= min;
    const bool belowMax = maxExclusive ? value < max : value <= max;
    return aboveMin && belowMax;
}

std::string NumberRange::describe() const {
    const bool hasMin = std::isfinite(min);
    const bool hasMax = std::isfinite(max);
    if (hasMin && hasMax)
        return fmt::format("a number in {}{}, {}{}", minExclusive ? '(' : '[', formatNumber(min), formatNumber(max),
                           maxExclusive ? ')' : ']');
    if (hasMin) return fmt::format("a number {} {}", minExclusive ? ">" : ">=", formatNumber(min));
    if (hasMax) return fmt::format("a number {} {}", maxExclusive ? "<" : "<=", formatNumber(max));
    return "a finite number";
}

float readFloat(const Field& field, const NumberRange& range) {
    if (!field.json().is_number()) field.failExpected(range.describe());
    const double value = field.json().get<double>();
    if (!range.contains(value)) field.failExpected(range.describe());
    // The engine stores float32, so the range is checked again on the float
    // the GPU will see: 1e300 is a finite double but an infinite float,
    // 1e-320 a positive double but a zero float, 89.9999999 inside (-90, 90)
    // but 90 as a float.
    const auto narrowed = static_cast<float>(value);
    if (!std::isfinite(narrowed)) field.failExpected("a number that fits in a 32-bit float (magnitude < 3.4e38)");
    // Bounds as floats too, so that a bound written in decimal (1e-6) is
    // itself accepted.
    const NumberRange floatRange{.min = static_cast<float>(range.min), .max = static_cast<float>(range.max),
                                 .minExclusive = range.minExclusive, .maxExclusive = range.maxExclusive};
    if (!floatRange.contains(narrowed))
        field.fail(fmt::format("expected {}, got {}, which is {} as a 32-bit float", range.describe(),
                               describeValue(field.json()), formatNumber(narrowed)));
    // Where a positive value is required, a subnormal float (below 1.2e-38)
    // is as good as zero: GPUs may flush it, and its inverse is infinite.
    const bool positiveRequired = range.min >= 0.0 && (range.min > 0.0 || range.minExclusive);
    if (positiveRequired && std::fpclassify(narrowed) == FP_SUBNORMAL)
        field.fail(fmt::format("expected {}, got {}, which is subnormal as a 32-bit float (below 1.2e-38)",
                               range.describe(), describeValue(field.json())));
    return narrowed;
}

int64_t readInteger(const Field& field, int64_t min, int64_t max, std::string_view customExpectation) {
    const std::string expectation = !customExpectation.empty() ? std::string(customExpectation)
                                    : max == std::numeric_limits<int64_t>::max()
                                        ? fmt::format("an integer >= {}", min)
                                        : fmt::format("an integer in [{}, {}]", min, max);
    const Json& value = field.json();
    if (!value.is_number_integer()) field.failExpected(expectation);
    // Unsigned literals above INT64_MAX are out of every range we use.
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        field.failExpected(expectation);
    const auto integer = value.get<int64_t>();
    if (integer < min || integer > max) field.failExpected(expectation);
    return integer;
}

bool readBool(const Field& field) {
    if (!field.json().is_boolean()) field.failExpected("true or false");
    return field.json().get<bool>();
}

std::string readString(const Field& field) {
    if (!field.json().is_string()) field.failExpected("a string");
    return field.json().get<std::string>();
}

std::string readNonEmptyString(const Field& field) {
    std::string text = readString(field);
    if (text.empty()) field.failExpected("a non-empty string");
    // Longer than any path the system can open (PATH_MAX) is no name either.
    constexpr std::size_t kMaxBytes = 4096;
    if (text.size() > kMaxBytes) field.failExpected(fmt::format("a string of at most {} bytes", kMaxBytes));
    // Names become file names and paths are opened: a NUL would cut a path
    // short (and a cache written next to "mesh.obj\0x" would land on
    // mesh.obj), and other control characters are never meant.
    for (const char c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            field.failExpected("a string without control characters (NUL, tab, newline, ...)");
    return text;
}

std::size_t readChoice(const Field& field, const std::vector<std::string_view>& choices) {
    const std::string expectation = choices.size() == 1 ? joinQuoted(choices) : "one of " + joinQuoted(choices);
    if (!field.json().is_string()) field.failExpected(expectation);
    const auto& text = field.json().get_ref<const std::string&>();
    const auto match = std::find(choices.begin(), choices.end(), text);
    if (match == choices.end()) field.failExpected(expectation);
    return static_cast<std::size_t>(match - choices.begin());
}

std::vector<Field> readArray(const Field& field) {
    if (!field.json().is_array()) field.failExpected("an array");
    std::vector<Field> elements;
    elements.reserve(field.json().size());
    for (std::size_t i = 0; i < field.json().size(); ++i) elements.push_back(field.element(i));
    return elements;
}

std::vector<float> readFloats(const Field& field, std::size_t count, const NumberRange& range) {
    if (!field.json().is_array() || field.json().size() != count)
        field.failExpected(fmt::format("an array of {} numbers", count));
    std::vector<float> values;
    values.reserve(count);
    for (std::size_t i = 0; i < count; ++i) values.push_back(readFloat(field.element(i), range));
    return values;
}

glm::vec2 readVec2(const Field& field, const NumberRange& range) {
    const std::vector<float> v = readFloats(field, 2, range);
    return {v[0], v[1]};
}

glm::vec3 readVec3(const Field& field, const NumberRange& range) {
    const std::vector<float> v = readFloats(field, 3, range);
    return {v[0], v[1], v[2]};
}

}  // namespace vksim::json_input
