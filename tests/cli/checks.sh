# Sourced by the command-line check scripts: a count of checks and failures,
# pass/fail to record one, finish to print the tally and set the exit status,
# and a scratch folder $work removed on exit.
failures=0
checks=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

pass() { checks=$((checks + 1)); echo "ok   $1"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $1"; }

finish() {
    echo "$((checks - failures)) passed, $failures failed"
    [[ $failures -eq 0 ]]
}
