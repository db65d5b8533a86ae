#include "run/stop_signal.h"

#include <fmt/format.h>

namespace vksim {
namespace {

// Written by the handler, read by the frame loops: the one type a handler
// may store to.
volatile std::sig_atomic_t stopSignalReceived = 0;

void recordStop(int signal) { stopSignalReceived = signal; }

}  // namespace

StopSignals::StopSignals() {
    stopSignalReceived = 0;
    struct sigaction action {};
    action.sa_handler = &recordStop;
    sigemptyset(&action.sa_mask);
    // SA_RESTART: a read or wait the signal lands in carries on, and the loop
    // sees the flag at the next frame. SA_RESETHAND: a second signal kills.
    action.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &action, &previousInt_);
    sigaction(SIGTERM, &action, &previousTerm_);
}

StopSignals::~StopSignals() {
    sigaction(SIGINT, &previousInt_, nullptr);
    sigaction(SIGTERM, &previousTerm_, nullptr);
}

int stopSignal() { return stopSignalReceived; }

std::string signalName(int signal) {
    switch (signal) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        default: return fmt::format("signal {}", signal);
    }
}

std::string stoppedMessage(int signal, uint64_t framesRun, std::optional<uint64_t> framesAsked) {
    const std::string of = framesAsked ? fmt::format(" of {}", *framesAsked) : std::string();
    return fmt::format("vksim: stopped by {} after {}{} frames; its outputs hold those frames", signalName(signal),
                       framesRun, of);
}

std::string stoppedWhileLoadingMessage(int signal, const std::string& scene, const std::string& work) {
    return fmt::format("vksim: stopped by {} while loading {}: {}; no frame was run", signalName(signal), scene, work);
}

}  // namespace vksim
