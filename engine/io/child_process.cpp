#include "io/child_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

extern char** environ;

namespace vksim {
namespace {

// Written by the handler, read by the wait loop: the one type a handler may
// store to.
volatile std::sig_atomic_t stopSignalCaught = 0;

void recordStop(int signal) { stopSignalCaught = signal; }

bool isFunction(const struct sigaction& action) {
    if (action.sa_flags & SA_SIGINFO) return action.sa_sigaction != nullptr;
    return action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

// SIGINT and SIGTERM recorded for as long as it lives, then the previous
// handlers back (and given the signal, when they are functions). Installed
// whatever the previous disposition, as run/stop_signal.h does: a
// background job of a shell starts with SIGINT ignored, and a stop asked
// for must still end the child.
class CatchStopSignals {
public:
    CatchStopSignals() {
        stopSignalCaught = 0;
        struct sigaction action {};
        action.sa_handler = &recordStop;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        sigaction(SIGINT, &action, &previousInt_);
        sigaction(SIGTERM, &action, &previousTerm_);
    }
    ~CatchStopSignals() { restore(); }
    // Puts the previous handlers back (once); returns the signal caught, or 0.
    int restore() {
        if (!restored_) {
            sigaction(SIGINT, &previousInt_, nullptr);
            sigaction(SIGTERM, &previousTerm_, nullptr);
            restored_ = true;
            const int signal = stopSignalCaught;
            if (signal != 0 && isFunction(signal == SIGINT ? previousInt_ : previousTerm_)) ::raise(signal);
        }
        return stopSignalCaught;
    }
    CatchStopSignals(const CatchStopSignals&) = delete;
    CatchStopSignals& operator=(const CatchStopSignals&) = delete;

private:
    struct sigaction previousInt_ {};
    struct sigaction previousTerm_ {};
    bool restored_ = false;
};

// A started child, killed and reaped unless waited for: no way out of the
// wait (an exception included) leaves it running.
class RunningChild {
public:
    explicit RunningChild(pid_t pid) : pid_(pid) {}
    ~RunningChild() {
        if (!reaped_) kill();
    }
    RunningChild(const RunningChild&) = delete;
    RunningChild& operator=(const RunningChild&) = delete;

    // waitpid(WNOHANG): true once it has ended (`status` then holds how).
    bool ended(int& status, int& error) {
        const pid_t done = ::waitpid(pid_, &status, WNOHANG);
        if (done == pid_) reaped_ = true;
        error = done < 0 && errno != EINTR ? errno : 0;
        return reaped_;
    }
    int kill() {
        int status = 0;
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        reaped_ = true;
        return status;
    }

private:
    pid_t pid_;
    bool reaped_ = false;
};

ChildOutcome spawnAndWait(const ChildProgram& program, const std::string& work) {
    ChildOutcome outcome;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, program.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> args;
    for (const std::string& arg : program.argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    outcome.spawnError = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (outcome.spawnError != 0) return outcome;

    RunningChild child(pid);
    const auto start = std::chrono::steady_clock::now();
    if (program.progress) program.progress(0.0);
    double nextProgress = program.progressSeconds;
    while (true) {
        const bool ended = child.ended(outcome.waitStatus, outcome.waitError);
        outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // Looked at before how the child ended: Ctrl-C reaches the whole
        // process group, so the child may have died of the same SIGINT.
        if (const int signal = stopSignalCaught) {
            if (!ended) child.kill();
            throw StoppedBySignal(signal, fmt::format("{} was ended after {:.0f} s", work, outcome.seconds));
        }
        if (ended) return outcome;
        if (outcome.waitError != 0) {
            child.kill();
            return outcome;
        }
        if (outcome.seconds > program.timeoutSeconds) {
            outcome.waitStatus = child.kill();
            outcome.timedOut = true;
            return outcome;
        }
        if (program.progress && outcome.seconds >= nextProgress) {
            program.progress(outcome.seconds);
            nextProgress += program.progressSeconds;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace

ChildOutcome runChildProcess(const ChildProgram& program, const std::string& work) {
    // Installed before the child exists, so that no signal between spawning
    // and waiting is lost; one that lands after the child ended stops too.
    CatchStopSignals catchStops;
    const ChildOutcome outcome = spawnAndWait(program, work);
    if (const int signal = catchStops.restore())
        throw StoppedBySignal(signal, fmt::format("{} had ended after {:.0f} s", work, outcome.seconds));
    return outcome;
}

}  // namespace vksim
