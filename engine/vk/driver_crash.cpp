#include "vk/driver_crash.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <new>

#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include <fmt/format.h>

#include "io/temporary_files.h"
#include "vk/vk_check.h"

#if defined(__SANITIZE_ADDRESS__)
#define VKSIM_DRIVER_CRASH_HANDLER 0
#else
#define VKSIM_DRIVER_CRASH_HANDLER 1
// The first byte of the image this code is linked into, the executable or a
// shared object such as the Python module, and the end of its code (GNU ld
// defines both for either).
extern "C" char __ehdr_start[];
extern "C" char etext[];
#endif

namespace vksim {
namespace {

// Read by the signal handler: lock-free atomics and buffers filled before
// it is installed.
std::atomic<const char*> gDoing{nullptr};
std::atomic<const char*> gDetail{nullptr};
static_assert(std::atomic<const char*>::is_always_lock_free);

#if VKSIM_DRIVER_CRASH_HANDLER
char gMemoryNote[160] = "";
// The signals handled, and the handlers that were there before.
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT};
struct sigaction gPrevious[std::size(kSignals)];
std::terminate_handler gPreviousTerminate = nullptr;
pid_t gMainThread = 0;  // the thread that installed the handlers
// Lives in the executable's data, so it exists even when nothing more can be
// mapped.
alignas(16) char gSignalStack[64 * 1024];

// Whether the faulting instruction is vksim's own. Unknown machines: no,
// and the crash inside a DriverCall is put down to the driver.
bool inOwnCode(const void* context) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    const auto* pc = reinterpret_cast<const char*>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    const auto* pc = reinterpret_cast<const char*>(uc->uc_mcontext.pc);
#else
    const char* pc = nullptr;
    (void)uc;
#endif
    return pc >= __ehdr_start && pc < etext;
}

// write(2) is async-signal-safe; nothing here allocates or locks.
void say(const char* text) {
    for (std::size_t left = std::strlen(text); left > 0;) {
        const ssize_t written = ::write(STDERR_FILENO, text, left);
        if (written <= 0) return;
        text += written;
        left -= static_cast<std::size_t>(written);
    }
}

// vksim runs on its main thread (its only other threads, the mesh SDF
// bake's, run vksim's own code and never throw): any other thread is the
// driver's. lavapipe runs submitted commands in one, and compiles shader
// variants there with LLVM, outside any call vksim makes.
bool onDriverThread() { return ::gettid() != gMainThread; }

// ") while creating the device; the driver may be out of host memory ...",
// or ") in a thread of its own; ...", and the line's end.
void sayWhereAndEnd(const char* doing) {
    if (doing) {
        say(") while ");
        say(doing);
        if (const char* detail = gDetail.load(std::memory_order_relaxed)) {
            say(" ");
            say(detail);
        }
    } else {
        say(") in a thread of its own, running vksim's GPU work");
    }
    say(gMemoryNote);
    say("\n");
    // A driver's thread may die while frames run and outputs are open.
    removeTemporaryFilesNow();
}

void onCrash(int signal, siginfo_t* info, void* context) {
    const char* doing = gDoing.load(std::memory_order_relaxed);
    if ((doing == nullptr && !onDriverThread()) || inOwnCode(context)) {
        // Not the driver's: hand it to the handler from before (by default a
        // core dump). A fault comes back when the instruction runs again; a
        // signal sent by kill() must be sent again.
        for (size_t i = 0; i < std::size(kSignals); ++i)
            if (kSignals[i] == signal) ::sigaction(signal, &gPrevious[i], nullptr);
        if (info->si_code <= 0) ::raise(signal);
        return;
    }
    say("vksim: the Vulkan driver ");
    say(signal == SIGABRT ? "aborted (SIGABRT" : signal == SIGBUS ? "crashed (SIGBUS" : "crashed (SIGSEGV");
    sayWhereAndEnd(doing);
    ::_exit(1);
}

// An exception the driver could not pass on (a std::bad_alloc thrown in
// LLVM cannot unwind through Mesa's C frames): inside a driver call or on a
// driver's thread, one line; anywhere else, the handler from before (the
// message and a core).
[[noreturn]] void onTerminate() {
    const char* doing = gDoing.load(std::memory_order_relaxed);
    if (doing == nullptr && !onDriverThread()) {
        (gPreviousTerminate ? gPreviousTerminate : std::abort)();
        std::abort();
    }
    bool outOfMemory = false;
    try {
        if (std::exception_ptr thrown = std::current_exception()) std::rethrow_exception(thrown);
    } catch (const std::bad_alloc&) {
        outOfMemory = true;
    } catch (...) {
    }
    say(outOfMemory ? "vksim: the Vulkan driver ran out of host memory (std::bad_alloc"
                    : "vksim: the Vulkan driver ended with an exception it could not handle (std::terminate");
    sayWhereAndEnd(doing);
    ::_exit(1);
}
#endif

}  // namespace

std::string driverMemoryNote() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return {};
    return fmt::format("; the driver may be out of host memory under the address-space limit of {} (ulimit -v)",
                       formatBytes(limit.rlim_cur));
}

DriverCall::DriverCall(const char* doing, const char* detail) noexcept
    : previousDoing_(gDoing.load(std::memory_order_relaxed)), previousDetail_(gDetail.load(std::memory_order_relaxed)) {
    // The detail first: the handler reads the doing, then the detail.
    gDetail.store(detail, std::memory_order_relaxed);
    gDoing.store(doing, std::memory_order_seq_cst);
}

DriverCall::~DriverCall() {
    gDoing.store(previousDoing_, std::memory_order_seq_cst);
    gDetail.store(previousDetail_, std::memory_order_relaxed);
}

void reportDriverCrashes() {
#if VKSIM_DRIVER_CRASH_HANDLER
    gMainThread = ::gettid();
    const std::string note = driverMemoryNote();
    std::strncpy(gMemoryNote, note.c_str(), sizeof gMemoryNote - 1);

    stack_t stack{};
    stack.ss_sp = gSignalStack;
    stack.ss_size = sizeof gSignalStack;
    ::sigaltstack(&stack, nullptr);

    struct sigaction action {};
    action.sa_sigaction = onCrash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &action, &gPrevious[i]);
    gPreviousTerminate = std::set_terminate(onTerminate);
#endif
}

}  // namespace vksim
