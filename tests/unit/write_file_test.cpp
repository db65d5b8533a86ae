// The one file writer (io/write_file.h): a file is replaced whole or not at
// all, a failed write keeps the file that was there and leaves no temporary
// behind, a device is written in place with its errors reported, and every
// failure is one line "cannot write PATH: REASON".
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/write_file.h"

namespace vksim {
namespace {

namespace fs = std::filesystem;

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class WriteFile : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("vksim_write_file_test_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // Names in the folder: a temporary left behind shows up here.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& entry : fs::directory_iterator(dir_)) out.push_back(entry.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }

    fs::path dir_;
};

TEST_F(WriteFile, ReplacesTheFileWholeAndLeavesNoTemporary) {
    const fs::path file = dir_ / "out.csv";
    writeWholeFile(file, std::string("old contents, longer than the new\n"));
    writeWholeFile(file, std::string("new\n"));
    EXPECT_EQ(readText(file), "new\n");
    EXPECT_EQ(names(), std::vector<std::string>{"out.csv"});
}

// A file too large for RLIMIT_FSIZE fails to write as a full disk does
// (EFBIG rather than ENOSPC), for any user: the previous file must survive.
TEST_F(WriteFile, AFailedWriteKeepsThePreviousFile) {
    const fs::path file = dir_ / "trace.json";
    writeWholeFile(file, std::string("precious"));

    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);  // the write fails instead of killing us
    rlimit small = saved;
    small.rlim_cur = 64 * 1024;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try {
        writeWholeFile(file, std::string(1 << 20, 'x'));
    } catch (const WriteError& e) {
        message = e.what();
    }
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);

    EXPECT_EQ(message, "cannot write " + file.string() + ": File too large");
    EXPECT_EQ(readText(file), "precious");
    EXPECT_EQ(names(), std::vector<std::string>{"trace.json"});
}

TEST_F(WriteFile, AnUncommittedFileLeavesTheTargetAlone) {
    const fs::path file = dir_ / "frame.obj";
    writeWholeFile(file, std::string("before"));
    {
        OutputFile out(file);
        out.write(std::string("half a fra"));
        // An exception (or a signal's early return) leaves before commit().
    }
    EXPECT_EQ(readText(file), "before");
    EXPECT_EQ(names(), std::vector<std::string>{"frame.obj"});
}

// /dev/full takes the open and fails the flush: a device is written in
// place (renaming onto it would replace the device node), and checked.
TEST_F(WriteFile, DevFullIsAOneLineErrorNamingTheFile) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    try {
        writeWholeFile("/dev/full", std::string("timings\n"));
        FAIL() << "a write to /dev/full succeeded";
    } catch (const WriteError& e) {
        EXPECT_STREQ(e.what(), "cannot write /dev/full: No space left on device");
        EXPECT_EQ(e.reason(), "No space left on device");
    }
    // Through a link with an extension, as --timings x.csv would be given it.
    const fs::path link = dir_ / "full.csv";
    fs::create_symlink("/dev/full", link);
    EXPECT_THROW(writeWholeFile(link, std::string(100000, 'x')), WriteError);
    EXPECT_TRUE(fs::is_symlink(link));
}

TEST_F(WriteFile, ALinkIsFollowedAndKept) {
    const fs::path real = dir_ / "real.json";
    const fs::path link = dir_ / "link.json";
    writeWholeFile(real, std::string("old"));
    fs::create_symlink(real.filename(), link);
    writeWholeFile(link, std::string("new"));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readText(real), "new");
    EXPECT_EQ(names(), (std::vector<std::string>{"link.json", "real.json"}));
}

TEST_F(WriteFile, AMissingFolderOrANulNamesTheFile) {
    const fs::path missing = dir_ / "no" / "t.json";
    try {
        writeWholeFile(missing, std::string("{}"));
        FAIL() << "wrote into a missing folder";
    } catch (const WriteError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot write " + missing.string() + ": No such file or directory");
    }
    std::string withNul = (dir_ / "mesh.obj").string();
    withNul += std::string(1, '\0') + ".sdf";
    try {
        writeWholeFile(fs::path(withNul), std::string("x"));
        FAIL() << "wrote to a name with a NUL";
    } catch (const WriteError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("mesh.obj\\0.sdf: the file name contains a NUL character"), std::string::npos)
            << message;
    }
    EXPECT_TRUE(names().empty());
}

}  // namespace
}  // namespace vksim
