#pragma once
// The one way vksim writes a file it produces (caches, exported meshes,
// traces, timings, screenshots, benchmark results).
//
// A regular file is written to a temporary name in the same folder and
// renamed over the target only once every write, the flush and the close
// have succeeded: a crash, a signal or a full disk never leaves a truncated
// file, and never destroys the file that was there before. A symbolic link
// is followed, so the file it points to is replaced and the link stays.
//
// A target that exists and is not a regular file (a device such as
// /dev/null or /dev/full, a FIFO, /dev/stdout) is written in place: renaming
// onto it would replace the device node rather than write to it, and such a
// target has no previous contents to protect. Its writes are checked all the
// same, so /dev/full fails like a full disk.
//
// Every failure is a WriteError whose message is one line naming the file:
// "cannot write PATH: REASON".
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vksim {

class WriteError : public std::runtime_error {
public:
    WriteError(const std::filesystem::path& path, const std::string& reason);
    // Why, without the file name ("No space left on device").
    const std::string& reason() const { return reason_; }

private:
    std::string reason_;
};

// A file being written: nothing reaches `target` until commit() succeeds.
class OutputFile {
public:
    // Opens the temporary file (or the device) for writing; throws WriteError.
    explicit OutputFile(std::filesystem::path target);
    // Without a successful commit(): the temporary file is removed and the
    // target left as it was.
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Buffered writes; the first failure is remembered and thrown by commit()
    // (a stream of small writes need not check each one).
    void write(std::string_view bytes);
    void write(std::span<const std::byte> bytes);
    // True once a write has failed.
    bool failed() const { return error_ != 0; }

    // Flushes, closes and renames into place; throws WriteError naming the
    // target when any write, the flush, the close or the rename failed.
    void commit();

    const std::filesystem::path& target() const { return target_; }

private:
    void discard() noexcept;

    std::filesystem::path target_;     // as the caller named it (for messages)
    std::filesystem::path temporary_;  // empty when written in place
    std::filesystem::path final_;      // where the temporary is renamed to (a link's target)
    std::FILE* file_ = nullptr;
    int error_ = 0;       // errno of the first failed write
    int registered_ = -1;  // the temporary's slot in temporary_files.h
};

// Writes a whole file through OutputFile; throws WriteError.
void writeWholeFile(const std::filesystem::path& path, std::span<const std::byte> bytes);
void writeWholeFile(const std::filesystem::path& path, std::string_view bytes);

}  // namespace vksim
