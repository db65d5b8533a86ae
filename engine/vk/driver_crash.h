#pragma once
// A Vulkan driver that runs out of memory may crash instead of returning
// VK_ERROR_OUT_OF_HOST_MEMORY: lavapipe, with 250 to 450 MiB of address
// space under `ulimit -v`, dies inside vkCreateDevice, in its shader
// compiler (vkCreateComputePipelines), or in the thread where it runs the
// submitted commands (compiling shader variants there): of SIGSEGV, of an
// abort (glibc found the heap corrupted: "double free or corruption",
// printed before), or of a std::bad_alloc that cannot unwind through the
// driver's C frames (std::terminate). vksim cannot prevent that, but it can
// say so: while a DriverCall is alive, or on a thread that is not vksim's
// (not the main thread), a SIGSEGV, SIGBUS or SIGABRT, or std::terminate,
// ends the process with exit status 1 and one line,
//   vksim: the Vulkan driver crashed (SIGSEGV) while creating the device;
//   it may be out of host memory under the address-space limit of 250.0 MiB (ulimit -v)
// ("... in a thread of its own, running vksim's GPU work; ..." for the
// driver's thread; the second half only when such a limit is set). Any
// other crash, and one whose faulting instruction is in vksim's own
// executable (a validation callback, say), is left to the handler that was
// there before: vksim's own bugs still crash, and still dump core.
#include <string>

namespace vksim {

// "; the driver may be out of host memory under the address-space limit of
// 250.0 MiB (ulimit -v)" when RLIMIT_AS is set, else "": the end of every
// message about a driver that failed or crashed, where memory may be why.
std::string driverMemoryNote();

// Marks the calling thread's next lines as a call into the driver, doing
// `doing` ("creating the device") on `detail` (a shader's name, or null).
// Both must outlive the object. Costs two atomic stores; nests.
class DriverCall {
public:
    explicit DriverCall(const char* doing, const char* detail = nullptr) noexcept;
    ~DriverCall();
    DriverCall(const DriverCall&) = delete;
    DriverCall& operator=(const DriverCall&) = delete;

private:
    const char* previousDoing_;
    const char* previousDetail_;
};

// Installs the SIGSEGV, SIGBUS and SIGABRT handler and the terminate
// handler for the whole process, with an
// alternate signal stack for the calling thread (a stack that could not grow
// under the limit is one way the driver dies), and reads RLIMIT_AS once.
// For programs, not for the library: an application embedding vksim keeps
// its own handlers. Does nothing under AddressSanitizer, whose own handler
// reports every crash with its stack (and which cannot run under a small
// ulimit -v anyway: it reserves terabytes of address space for its shadow).
void reportDriverCrashes();

}  // namespace vksim
