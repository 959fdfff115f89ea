// fuzz_priority.cpp - fuzz target: priority/multifactor's slurm.conf values (every key given the
// input's text), the usage ledger's state-store records read back from arbitrary bytes, and both
// fair-share algorithms over a tree the input shapes: nothing crashes, each factor stays in 0..1.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../../plugins/priority/multifactor/fairshare.hpp"
#include "../../plugins/priority/multifactor/settings.hpp"
#include "ctld/policy/usage_ledger.hpp"

namespace {

constexpr std::string_view kKeys[] = {
    "PriorityWeightAge",  "PriorityWeightAssoc",      "PriorityWeightFairshare",
    "PriorityWeightQOS",  "PriorityWeightTRES",       "PriorityMaxAge",
    "PriorityFavorSmall", "FairShareDampeningFactor", "PriorityFlags"};

void settings(std::string_view text) {
    for (std::string_view key : kKeys) try {
            drover::multifactor::read_settings(
                [&](std::string_view k) -> std::optional<std::string_view> {
                    if (k == key) return text;
                    return std::nullopt;
                },
                nullptr);
        } catch (const std::invalid_argument &) {}
}

// Bytes as a tree: each node's parent (an earlier one), user or account, shares and usage.
void trees(const uint8_t *data, size_t size) {
    std::vector<drover_priority_assoc> t;
    static const char *kNames[] = {"a", "b", "c", "d"};
    for (size_t i = 0; i + 3 < size && t.size() < 64; i += 4) {
        drover_priority_assoc a{};
        a.struct_size = sizeof a;
        a.parent = t.empty() ? DROVER_NO_VAL : data[i] % t.size();
        a.account = {kNames[data[i + 1] % 4], 1};
        a.user = (data[i + 1] & 4) ? drover_str{kNames[data[i + 1] % 4], 1} : drover_str{"", 0};
        a.shares_raw = data[i + 2] == 255 ? DROVER_PRIORITY_SHARES_PARENT : data[i + 2] % 4;
        a.usage_raw = data[i + 3] % 8;
        t.push_back(a);
    }
    if (t.empty()) return;
    for (int algo = 0; algo < 2; ++algo) {
        auto copy = t;
        if (algo)
            drover::multifactor::classic(copy, 1 + data[0] % 3);
        else
            drover::multifactor::fair_tree(copy);
        for (const auto &a : copy)
            if (!(a.fairshare >= 0 && a.fairshare <= 1)) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    std::string_view text(reinterpret_cast<const char *>(data), size);
    settings(text);
    drover::ctld::policy::UsageLedger ledger;
    size_t cut = size ? data[0] % (size + 1) : 0;
    (void)ledger.load({data, cut}, {data + cut, size - cut});
    for (const auto &[k, u] : ledger.all())
        if (!std::isfinite(u) || u < 0) std::abort();
    trees(data, size);
    return 0;
}
