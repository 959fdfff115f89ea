// fuzz_partition.cpp - fuzz target: scontrol create/update partition's keys as the controller
// reads them (the input split into Key=Value words, each key read as scontrol spells it): nothing
// crashes, and whatever settings are taken are written out (partition_settings, as the
// controller's partition records hold them) and read back to the same settings.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "common/partition_keys.hpp"

namespace {

bool same(const drover::PartitionConf &a, const drover::PartitionConf &b) {
    return a.nodes_expr == b.nodes_expr && a.is_default == b.is_default && a.state == b.state &&
           a.max_time_min == b.max_time_min && a.default_time_min == b.default_time_min &&
           a.max_nodes == b.max_nodes && a.min_nodes == b.min_nodes &&
           a.allow_groups == b.allow_groups && a.allow_accounts == b.allow_accounts &&
           a.oversubscribe == b.oversubscribe && a.qos == b.qos &&
           a.preempt_mode == b.preempt_mode && a.priority_tier == b.priority_tier &&
           a.priority_job_factor == b.priority_job_factor && a.suspend_time == b.suspend_time &&
           a.suspend_timeout == b.suspend_timeout && a.resume_timeout == b.resume_timeout &&
           a.power_down_on_idle == b.power_down_on_idle;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    drover::PartitionConf part;
    std::size_t at = 0, words = 0;
    while (at < text.size() && words++ < 32) {
        std::size_t end = text.find(' ', at);
        std::string_view word = text.substr(at, end == std::string_view::npos ? end : end - at);
        std::size_t eq = word.find('=');
        if (eq != std::string_view::npos) {
            std::string_view key = drover::scontrol_partition_key(word.substr(0, eq));
            if (!key.empty()) {
                drover::PartitionConf next = part;
                try {
                    drover::set_partition_key(next, "partition fuzz", key,
                                              std::string(word.substr(eq + 1)));
                    part = next;
                } catch (const drover::ParseError &) {}
            }
        }
        if (end == std::string_view::npos) break;
        at = end + 1;
    }
    drover::PartitionConf back;
    try {
        for (const auto &[key, value] : drover::partition_settings(part))
            if (!drover::set_partition_key(back, "record", key, value)) std::abort();
    } catch (const drover::ParseError &) {
        std::abort(); // a setting taken must read back
    }
    if (!same(part, back)) std::abort();
    return 0;
}
