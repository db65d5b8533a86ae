#pragma once
// The tests that time themselves bound the time generously, to catch an
// algorithm gone quadratic, not to time the machine. Under AddressSanitizer
// (scripts/asan_tests.sh) memory-heavy code runs about ten times slower: a
// million pinned entries parse in 11.5 s there, against a bound of 10 s
// meant for the plain build. So the bounds stretch by this factor.
namespace vksim::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr double kTimeBoundScale = 10.0;
#else
inline constexpr double kTimeBoundScale = 1.0;
#endif

}  // namespace vksim::test
