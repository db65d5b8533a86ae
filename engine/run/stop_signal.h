#pragma once
// SIGINT and SIGTERM during a run: the handler only records the signal (a
// handler may do little more), and the frame loops look at it between
// frames. A run that was asked to stop finishes the frame in hand, closes
// its outputs so they are complete and valid (the trace, the timings and the
// exported frames of the frames it ran), says so in one line and exits with
// status 128 + the signal: 130 for SIGINT, 143 for SIGTERM, as a shell
// reports a process the signal killed.
//
// The handlers are installed with SA_RESETHAND: a second signal, while the
// run is closing, kills the process at once. Even then no output is left
// truncated, since every file is written to a temporary name first
// (io/write_file.h).
#include <csignal>
#include <cstdint>
#include <optional>
#include <string>

namespace vksim {

// Installs the handlers and clears any earlier stop; the destructor puts
// the previous handlers back.
class StopSignals {
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction previousInt_ {};
    struct sigaction previousTerm_ {};
};

// The signal that asked the run to stop, or 0.
int stopSignal();
inline bool stopRequested() { return stopSignal() != 0; }

// "SIGINT", "SIGTERM" (or "signal N").
std::string signalName(int signal);

// The one line a stopped run prints: "vksim: stopped by SIGINT after 12 of
// 1000 frames; its outputs hold those frames" ("after 12 frames" when the
// run had no set length).
std::string stoppedMessage(int signal, uint64_t framesRun, std::optional<uint64_t> framesAsked);

// The line of a run stopped while its scene loaded, when a helper program
// (tetgen, io/child_process.h) was running: "vksim: stopped by SIGTERM while
// loading scenes/x.json: tetgen meshing assets/x.obj was ended after 3 s;
// no frame was run". `scene` is as messages show it; `work` says what was
// ended.
std::string stoppedWhileLoadingMessage(int signal, const std::string& scene, const std::string& work);

// The exit status of a run stopped by `signal`: 128 + signal.
inline int stoppedExitStatus(int signal) { return 128 + signal; }

}  // namespace vksim
