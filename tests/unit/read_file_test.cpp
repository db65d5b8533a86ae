// The one input reader (io/read_file.h): a FIFO nobody writes to reads as
// empty at once (open() used to wait for a writer forever), one that is
// written to reads whole, a device or directory is refused before any read,
// and a file over the caller's limit is refused by its size.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "io/read_file.h"

namespace vksim {
namespace {

namespace fs = std::filesystem;

class ReadFile : public ::testing::Test {
protected:
    void SetUp() override {
        folder_ = fs::temp_directory_path() / ("vksim_read_file_" + std::to_string(::getpid()));
        fs::create_directories(folder_);
    }
    void TearDown() override { fs::remove_all(folder_); }
    std::string problem(const fs::path& file, std::size_t limit = 1u << 20) {
        try {
            readWholeFile(file, limit);
        } catch (const FileReadError& e) {
            return e.what();
        }
        return "(no error)";
    }
    fs::path folder_;
};

TEST_F(ReadFile, AFifoWithoutAWriterReadsAsEmptyAtOnce) {
    const fs::path fifo = folder_ / "scene.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(readWholeFile(fifo, 1u << 20), "");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(ReadFile, AFifoThatIsWrittenToReadsWhole) {
    const fs::path fifo = folder_ / "scene.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string text(200000, 'x');  // more than one pipe buffer
    std::thread writer([&] {
        std::ofstream out(fifo, std::ios::binary);  // blocks until the reader has opened
        out << text;
    });
    // The reader may open before the writer: a non-blocking open then sees
    // no writer, and the read would end at once. Wait for the writer's side.
    std::string got;
    for (int attempt = 0; attempt < 200 && got.empty(); ++attempt) {
        got = readWholeFile(fifo, 1u << 20);
        if (got.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    writer.join();
    EXPECT_EQ(got.size(), text.size());
}

TEST_F(ReadFile, DevicesDirectoriesMissingAndOversizedFilesAreRefused) {
    EXPECT_EQ(problem("/dev/zero"), "cannot open file: not a regular file (a device or a socket)");
    EXPECT_EQ(problem(folder_), "cannot open file: Is a directory");
    EXPECT_EQ(problem(folder_ / "missing.obj"), "cannot open file: No such file or directory");
    const fs::path big = folder_ / "big.obj";
    std::ofstream(big) << std::string(3u << 20, 'v');
    EXPECT_EQ(problem(big, 2u << 20), "file is larger than 2 MiB");
    EXPECT_EQ(readWholeFile(big, 4u << 20).size(), 3u << 20);
}

}  // namespace
}  // namespace vksim
