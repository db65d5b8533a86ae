#include "vk/device_fault.h"

#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "vk/context.h"

namespace vksim {
namespace detail {
std::atomic<FaultSite> armedFaultSite{FaultSite::None};
}  // namespace detail

namespace {

std::atomic<uint64_t> callsAtSite{0};
std::atomic<uint64_t> failingCall{0};
std::atomic<VkResult> failingResult{VK_SUCCESS};

}  // namespace

std::optional<FaultPlan> parseFaultSpec(const std::string& text) {
    const size_t at = text.find('@');
    const size_t colon = text.find(':', at == std::string::npos ? 0 : at);
    if (at == std::string::npos || colon == std::string::npos) return std::nullopt;
    const std::string kind = text.substr(0, at);
    const std::string site = text.substr(at + 1, colon - at - 1);
    FaultPlan plan;
    if (kind == "device-lost") plan.result = VK_ERROR_DEVICE_LOST;
    else if (kind == "oom") plan.result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
    else if (kind == "host-oom") plan.result = VK_ERROR_OUT_OF_HOST_MEMORY;
    else if (kind == "timeout") plan.result = VK_TIMEOUT;
    else return std::nullopt;
    if (site == "submit") plan.site = FaultSite::Submit;
    else if (site == "wait") plan.site = FaultSite::Wait;
    else if (site == "alloc") plan.site = FaultSite::Alloc;
    else if (site == "map") plan.site = FaultSite::Map;
    else return std::nullopt;
    const char* first = text.data() + colon + 1;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, plan.nth);
    if (first == last || ec != std::errc() || end != last || plan.nth == 0) return std::nullopt;
    return plan;
}

void armFault(const FaultPlan& plan) {
    disarmFault();
    callsAtSite = 0;
    failingCall = plan.nth;
    failingResult = plan.result;
    detail::armedFaultSite = plan.site;
}

void disarmFault() { detail::armedFaultSite = FaultSite::None; }

void armFaultFromEnvironment() {
    static bool read = false;  // once: later contexts keep counting the same calls
    if (read) return;
    read = true;
    const char* value = std::getenv("VKSIM_FAULT");
    if (!value || !*value) return;
    const std::optional<FaultPlan> plan = parseFaultSpec(value);
    if (!plan)
        throw DeviceError(fmt::format("VKSIM_FAULT '{:.80}' is not KIND@SITE:N (KIND: device-lost, oom, host-oom, timeout; "
                                      "SITE: submit, wait, alloc, map; N from 1)",
                                      value));
    armFault(*plan);
}

namespace detail {

VkResult countFault() {
    // Only the Nth call fails: a run that goes on after the fault (a test)
    // finds a working device again.
    return ++callsAtSite == failingCall ? failingResult.load() : VK_SUCCESS;
}

}  // namespace detail
}  // namespace vksim
