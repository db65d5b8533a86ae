// The driver-crash report (vk/driver_crash.h), in child processes (death
// tests): a SIGSEGV outside vksim's code while a DriverCall is alive ends the
// process with status 1 and exactly one line, naming the address-space limit
// only when one is set; a crash in vksim's own code, or outside any
// DriverCall, still dies of SIGSEGV as before, saying nothing. The real thing, lavapipe
// crashing under ulimit -v, is tests/cli/low_memory.sh.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <sys/resource.h>

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

}  // namespace
}  // namespace vksim
