#pragma once
// Running a helper program (the tetgen program, io/tetgen_runner.h) as a
// child process and waiting for it, with a time limit and a word every few
// seconds while it runs.
//
// While the child runs, SIGINT and SIGTERM are caught here: the child is
// killed and reaped and the wait throws StoppedBySignal, so that the
// caller's temporary files go as the exception unwinds and vksim exits as a
// stopped run does (run/stop_signal.h: 130 or 143). Left to their default
// action, the signals would end vksim alone, and the child would run on,
// adopted by init, its temporary folder left behind. The handlers that were
// in place before are put back when the wait ends; one that was a function
// (an embedder's, or run/stop_signal.h's) is then sent the signal too.
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vksim {

// The wait for a child ended by SIGINT or SIGTERM; what() says what ran.
class StoppedBySignal : public std::runtime_error {
public:
    StoppedBySignal(int signal, const std::string& what) : std::runtime_error(what), signal_(signal) {}
    int signal() const { return signal_; }

private:
    int signal_;
};

struct ChildProgram {
    std::vector<std::string> argv;  // argv[0] is looked up in PATH unless it holds a '/'
    std::filesystem::path log;      // stdout and stderr go here; stdin is /dev/null
    double timeoutSeconds = 300.0;
    double progressSeconds = 5.0;
    // Called once the child has started (with 0), then every progressSeconds
    // while it runs, with the seconds so far.
    std::function<void(double seconds)> progress;
};

struct ChildOutcome {
    int spawnError = 0;     // posix_spawnp(3)'s error (ENOENT: not found); nothing ran
    int waitError = 0;      // waitpid(2)'s error; the child was killed
    int waitStatus = 0;     // as waitpid(2) reports it
    bool timedOut = false;  // killed at the time limit
    double seconds = 0.0;
};

// Runs the program to its end or its time limit. Throws StoppedBySignal
// when SIGINT or SIGTERM arrives meanwhile; `work` names what ran for its
// message ("tetgen meshing assets/x.obj").
ChildOutcome runChildProcess(const ChildProgram& program, const std::string& work);

}  // namespace vksim
