#pragma once
// The temporary files being written (write_file.h's OutputFile), for a
// process that must end at once: vksim's crash report for a driver that
// died in its own thread while frames ran (vk/driver_crash.h) removes them
// before it exits, so that a crash leaves no temporary file behind, as an
// error or a signal does not. A fixed table that a signal handler may read:
// registering copies the path, removing never allocates.
namespace vksim {

// Registers `path` (NUL-terminated, shorter than 4096 bytes); returns its
// slot, or -1 when the table is full or the path too long (the file is then
// only removed the ordinary way).
int registerTemporaryFile(const char* path) noexcept;
// The slot's file was renamed into place or removed.
void unregisterTemporaryFile(int slot) noexcept;
// unlink(2)s every registered file. Async-signal-safe.
void removeTemporaryFilesNow() noexcept;

}  // namespace vksim
