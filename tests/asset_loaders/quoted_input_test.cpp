// Input as messages show it (io/quoted_input.h): whole when short; when
// long, about 80 bytes of it, its start and its end, cut between UTF-8
// characters, with its size; escaped so that a message stays one line.
#include <gtest/gtest.h>

#include <string>

#include "io/quoted_input.h"

namespace vksim {
namespace {

// Whether `text` is well-formed UTF-8 (what a cut between characters keeps).
bool isUtf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const std::size_t length = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3
                                                 : (lead & 0xF8) == 0xF0 ? 4 : 0;
        if (length == 0 || i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        i += length;
    }
    return true;
}

TEST(QuotedInput, ShortInputIsWhole) {
    EXPECT_EQ(quoteInput("short"), "\"short\"");
    EXPECT_EQ(quoteInput("a\"b\\c\nd\x01"), R"("a\"b\\c\nd\u0001")");
    EXPECT_EQ(quoteArgument("a\tb.json"), "'a?b.json'");
    EXPECT_EQ(clipInput("assets/mesh.obj"), "assets/mesh.obj");
    EXPECT_EQ(quoteInput(std::string(80, 'a')), "\"" + std::string(80, 'a') + "\"");
}

TEST(QuotedInput, LongInputKeepsItsStartAndItsEnd) {
    const std::string path = "assets/" + std::string(100000, 'a') + "/mesh.obj";
    const std::string quoted = quoteInput(path);
    std::cout << "[quote] " << quoted << "\n";
    // 61 bytes, "…" (3 bytes), 16 bytes: 80; then the quotes and the size.
    EXPECT_EQ(quoted,
              "\"assets/" + std::string(54, 'a') + "\u2026" + std::string(7, 'a') + "/mesh.obj\" (100016 bytes)");
    EXPECT_EQ(clipInput(path), "assets/" + std::string(54, 'a') + "\u2026" + std::string(7, 'a') + "/mesh.obj");
    EXPECT_EQ(quoteArgument(path),
              "'assets/" + std::string(54, 'a') + "\u2026" + std::string(7, 'a') + "/mesh.obj' (100016 bytes)");
    EXPECT_LE(clipInput(path).size(), 80u);
}

TEST(QuotedInput, CutsBetweenCharacters) {
    // "é" (2 bytes) and "€" (3 bytes) across both cuts, at every offset.
    for (const std::string character : {"\xc3\xa9", "\xe2\x82\xac"})
        for (std::size_t shift = 0; shift < 3; ++shift) {
            std::string text = std::string(shift, 'x');
            while (text.size() < 200) text += character;
            const std::string clipped = clipInput(text), quoted = quoteInput(text);
            EXPECT_TRUE(isUtf8(clipped)) << clipped;
            EXPECT_TRUE(isUtf8(quoted)) << quoted;
            EXPECT_LE(clipped.size(), 80u);
            EXPECT_NE(quoted.find("(" + std::to_string(text.size()) + " bytes)"), std::string::npos) << quoted;
        }
}

TEST(QuotedInput, BytesThatAreNotUtf8AreReplacedWhenQuoted) {
    EXPECT_EQ(quoteInput("a\xff" "b"), "\"a\uFFFDb\"");
    EXPECT_EQ(quoteInput("\xc3"), "\"\uFFFD\"");  // a character cut short
}

}  // namespace
}  // namespace vksim
