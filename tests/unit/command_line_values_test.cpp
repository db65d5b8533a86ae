// Command-line values (app/command_line_values.h): read whole, range-checked
// before conversion, never wrapped; empty strings refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/command_line_values.h"

namespace vksim {
namespace {

TEST(CommandLineValues, PixelSizeIsReadWholeAndInRange) {
    const auto size = parsePixelSize("1280x720");
    ASSERT_TRUE(size);
    EXPECT_EQ(size->width, 1280u);
    EXPECT_EQ(size->height, 720u);
    EXPECT_TRUE(parsePixelSize("16X8192"));
    // 4294967936 is 2^32 + 640: sscanf("%u") wrapped it to 640.
    EXPECT_FALSE(parsePixelSize("4294967936x480"));
    for (const char* bad : {"", "x", "640x", "x480", "640x480x", "640x480 ", " 640x480", "+640x480", "-640x480",
                            "640.0x480", "15x480", "8193x480", "640*480", "640x18446744073709551616"})
        EXPECT_FALSE(parsePixelSize(bad)) << bad;
    EXPECT_EQ(checkPixelSize("4294967936x480"),
              "expected WxH with 16 <= W, H <= 8192, e.g. 1280x720, got '4294967936x480'");
}

TEST(CommandLineValues, IntegersAreDigitsInRange) {
    EXPECT_EQ(parseBoundedInteger("300", 1, 1000), 300u);
    EXPECT_FALSE(parseBoundedInteger("", 0, 10));
    EXPECT_FALSE(parseBoundedInteger("-1", 0, 10));
    EXPECT_FALSE(parseBoundedInteger("1e3", 0, 10000));
    EXPECT_FALSE(parseBoundedInteger("4294967297", 1, 100000000));
    EXPECT_FALSE(parseBoundedInteger("99999999999999999999999", 0, UINT64_MAX));
    EXPECT_EQ(checkBoundedInteger("", 2, 4096), "expected an integer in [2, 4096], got ''");
    EXPECT_EQ(checkBoundedInteger("8", 2, 4096), "");
}

TEST(CommandLineValues, PathsAreNonEmptyWithoutControlCharacters) {
    EXPECT_EQ(checkPath(""), "expected a file name, got ''");
    EXPECT_EQ(checkPath("scenes/cloth sphere.json"), "");
    EXPECT_EQ(checkPath("caf\xc3\xa9.json"), "");  // UTF-8 is not a control character
    EXPECT_EQ(checkPath("a\nb.json"), "expected a file name without control characters, got 'a?b.json'");
    EXPECT_NE(checkPath(std::string("a\0b", 3)), "");
    EXPECT_NE(checkPath("a\x7f"), "");
}

TEST(CommandLineValues, IntegerListsHaveNoEmptyEntry) {
    EXPECT_EQ(parseIntegerList("64,128,256", 2, 4096), (std::vector<uint32_t>{64, 128, 256}));
    EXPECT_EQ(parseIntegerList("8", 2, 4096), (std::vector<uint32_t>{8}));
    for (const char* bad : {"", ",", ",,", "64,", ",64", "64,,128", "1", "64,4097", "64, 128"})
        EXPECT_FALSE(parseIntegerList(bad, 2, 4096)) << "'" << bad << "'";
    EXPECT_EQ(checkIntegerList(",,", 2, 4096), "expected comma-separated integers in [2, 4096], got ',,'");
}

TEST(CommandLineValues, EmptyStringsAndHugeDeviceIndicesAreRefused) {
    EXPECT_NE(checkDeviceSelector(""), "");
    EXPECT_EQ(checkDeviceSelector("0"), "");
    EXPECT_EQ(checkDeviceSelector("llvmpipe"), "");
    EXPECT_EQ(checkDeviceSelector("99999999999999999999"),
              "expected a device index in [0, 65535] (see --list-devices), got '99999999999999999999'");
}

}  // namespace
}  // namespace vksim
