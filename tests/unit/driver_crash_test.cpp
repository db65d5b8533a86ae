// The driver-crash report (vk/driver_crash.h), in child processes (death
// tests): a SIGSEGV outside vksim's code while a DriverCall is alive ends the
// process with status 1 and exactly one line, naming the address-space limit
// only when one is set, and so does an abort or std::terminate there; a
// crash in vksim's own code, or outside any DriverCall, still dies as
// before, saying nothing. The real thing, lavapipe
// crashing under ulimit -v, is tests/cli/low_memory.sh.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include <sys/resource.h>

#include "io/read_file.h"
#include "io/write_file.h"
#include "vk/driver_crash.h"

namespace vksim {
namespace {

// A fault inside a library, as a driver's would be: strlen in libc on a
// pointer to nowhere.
void faultInALibrary() {
    const char* volatile nowhere = reinterpret_cast<const char*>(16);
    std::printf("%zu\n", std::strlen(nowhere));
}

// A fault in the executable's own code.
[[gnu::noinline]] void faultInOwnCode() {
    volatile int* volatile nowhere = nullptr;
    *nowhere = 1;
}

// In the child: no address-space limit, so that the line has no note (the
// parent skips where a hard limit makes that impossible).
void removeAddressSpaceLimit() {
    rlimit limit{};
    getrlimit(RLIMIT_AS, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_AS, &limit);
}

bool hardAddressSpaceLimit() {
    rlimit limit{};
    getrlimit(RLIMIT_AS, &limit);
    return limit.rlim_max != RLIM_INFINITY;
}

class DriverCrashDeathTest : public testing::Test {
protected:
    void SetUp() override {
#if defined(__SANITIZE_ADDRESS__)
        GTEST_SKIP() << "under AddressSanitizer reportDriverCrashes() does nothing: ASan reports every crash";
#endif
        GTEST_FLAG_SET(death_test_style, "threadsafe");
    }
};

TEST_F(DriverCrashDeathTest, UnderAnAddressSpaceLimitTheLineNamesIt) {
    constexpr rlim_t kLimit = rlim_t{64} << 30;
    rlimit hard{};
    getrlimit(RLIMIT_AS, &hard);
    if (hard.rlim_max != RLIM_INFINITY && hard.rlim_max < kLimit) GTEST_SKIP() << "a hard limit below 64 GiB";
    EXPECT_EXIT(
        {
            rlimit limit{};
            getrlimit(RLIMIT_AS, &limit);
            limit.rlim_cur = kLimit;
            setrlimit(RLIMIT_AS, &limit);
            reportDriverCrashes();
            const DriverCall call("compiling the compute shader", "pbd/stretch.comp");
            faultInALibrary();
        },
        testing::ExitedWithCode(1),
        testing::Eq("vksim: the Vulkan driver crashed (SIGSEGV) while compiling the compute shader pbd/stretch.comp; "
                    "the driver may be out of host memory under the address-space limit of 64.0 GiB (ulimit -v)\n"));
}

// After a nested call ends, the outer one is named again.
TEST_F(DriverCrashDeathTest, ACrashInsideADriverCallIsOneLineAndStatus1) {
    if (hardAddressSpaceLimit()) GTEST_SKIP() << "a hard address-space limit";
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            const DriverCall outer("creating the device");
            { const DriverCall inner("compiling the compute shader", "pbd/stretch.comp"); }
            faultInALibrary();
        },
        testing::ExitedWithCode(1), testing::Eq("vksim: the Vulkan driver crashed (SIGSEGV) while creating the device\n"));
}

TEST_F(DriverCrashDeathTest, VksimsOwnCrashesStillCrash) {
    // Outside any driver call, in a library or in vksim's code.
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            faultInALibrary();
        },
        testing::KilledBySignal(SIGSEGV), testing::Eq(std::string()));
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            { const DriverCall ended("creating the device"); }
            faultInOwnCode();
        },
        testing::KilledBySignal(SIGSEGV), testing::Eq(std::string()));
    // Inside a driver call, but in vksim's own code (a validation callback).
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            const DriverCall call("creating the device");
            faultInOwnCode();
        },
        testing::KilledBySignal(SIGSEGV), testing::Eq(std::string()));
    // Sent by kill() rather than by a fault: passed on too.
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            std::raise(SIGSEGV);
        },
        testing::KilledBySignal(SIGSEGV), testing::Eq(std::string()));
}

// lavapipe compiles shader variants and runs the commands in a thread of its
// own, outside any call: a crash there is the driver's too, but a fault in
// vksim's own code on another thread still crashes.
TEST_F(DriverCrashDeathTest, ACrashOnTheDriversThreadIsOneLineAndStatus1) {
    if (hardAddressSpaceLimit()) GTEST_SKIP() << "a hard address-space limit";
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            std::thread(faultInALibrary).join();
        },
        testing::ExitedWithCode(1),
        testing::Eq("vksim: the Vulkan driver crashed (SIGSEGV) in a thread of its own, running vksim's GPU work\n"));
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            std::thread([] {
                try {
                    throw std::bad_alloc();
                } catch (...) {
                    std::terminate();
                }
            }).join();
        },
        testing::ExitedWithCode(1),
        testing::Eq("vksim: the Vulkan driver ran out of host memory (std::bad_alloc) in a thread of its own, "
                    "running vksim's GPU work\n"));
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            std::thread(faultInOwnCode).join();
        },
        testing::KilledBySignal(SIGSEGV), testing::Eq(std::string()));
}

// The driver's thread dies while frames run and a trace is being written:
// the temporary file goes with the process, the target stays as it was.
TEST_F(DriverCrashDeathTest, ACrashWhileWritingLeavesNoTemporaryFile) {
    if (hardAddressSpaceLimit()) GTEST_SKIP() << "a hard address-space limit";
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("vksim_driver_crash_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    writeWholeFile(dir / "trace.json", std::string_view("before"));
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            OutputFile trace(dir / "trace.json");
            trace.write(std::string_view("[{\"frame\": 0}"));
            std::thread(faultInALibrary).join();
        },
        testing::ExitedWithCode(1), "in a thread of its own");
    std::vector<std::string> left;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) left.push_back(entry.path().filename());
    EXPECT_EQ(left, std::vector<std::string>{"trace.json"});
    EXPECT_EQ(readWholeFile(dir / "trace.json", 1024), "before");
    std::filesystem::remove_all(dir);
}

// glibc aborts when it finds the heap corrupted (lavapipe under ulimit -v:
// "double free or corruption (top)" inside vkCreateDevice, seen in gdb).
TEST_F(DriverCrashDeathTest, AnAbortInsideADriverCallIsOneLineAndStatus1) {
    if (hardAddressSpaceLimit()) GTEST_SKIP() << "a hard address-space limit";
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            const DriverCall call("creating the device");
            std::abort();
        },
        testing::ExitedWithCode(1), testing::Eq("vksim: the Vulkan driver aborted (SIGABRT) while creating the device\n"));
    // Outside a driver call an abort is still an abort.
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            std::abort();
        },
        testing::KilledBySignal(SIGABRT), testing::Eq(std::string()));
}

// A std::bad_alloc thrown inside the driver's compiler cannot unwind through
// its C frames: std::terminate, with the exception still current.
TEST_F(DriverCrashDeathTest, AnExceptionTheDriverCannotPassOnIsOneLineAndStatus1) {
    if (hardAddressSpaceLimit()) GTEST_SKIP() << "a hard address-space limit";
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            const DriverCall call("compiling the compute shader", "pbd/stretch.comp");
            try {
                throw std::bad_alloc();
            } catch (...) {
                std::terminate();
            }
        },
        testing::ExitedWithCode(1),
        testing::Eq("vksim: the Vulkan driver ran out of host memory (std::bad_alloc) while compiling the compute "
                    "shader pbd/stretch.comp\n"));
    EXPECT_EXIT(
        {
            removeAddressSpaceLimit();
            reportDriverCrashes();
            const DriverCall call("creating the device");
            std::terminate();
        },
        testing::ExitedWithCode(1),
        testing::Eq("vksim: the Vulkan driver ended with an exception it could not handle (std::terminate) while "
                    "creating the device\n"));
    // Outside a driver call: the usual message, and an abort.
    EXPECT_EXIT(
        {
            reportDriverCrashes();
            try {
                throw std::bad_alloc();
            } catch (...) {
                std::terminate();
            }
        },
        testing::KilledBySignal(SIGABRT), "terminate called after throwing");
}

}  // namespace
}  // namespace vksim
