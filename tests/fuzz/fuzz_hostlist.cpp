// fuzz_hostlist.cpp - fuzz target: hostlist_expand, then compress must expand back to the same
// names, and the ranged form (in order, or sorted) to the same names in its order.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/hostlist.hpp"

// Big expansions are correct but slow (seconds under ASan); the logic is the same at this size.
constexpr std::size_t kMaxNames = 1u << 16;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 1024) return 0;
    std::string_view expr(reinterpret_cast<const char *>(data), size);
    std::vector<std::string> names;
    try {
        names = drover::hostlist_expand(expr, kMaxNames);
    } catch (const drover::ParseError &) {
        return 0;
    }
    if (names.size() > kMaxNames) std::abort();
    // What compress writes must expand without error (a ParseError here is a bug, so it is not
    // caught), to the same names, and compress again to the same text.
    std::string compressed = drover::hostlist_compress(names);
    std::vector<std::string> again = drover::hostlist_expand(compressed);
    if (drover::hostlist_compress(again) != compressed) std::abort();
    // hostlist_ranged (scontrol show hostlist) keeps the names in their order; sorted, in order.
    if (drover::hostlist_expand(drover::hostlist_ranged(names, false)) != names) std::abort();
    std::vector<std::string> sorted = drover::hostlist_expand(drover::hostlist_ranged(names, true));
    std::sort(names.begin(), names.end());
    std::sort(again.begin(), again.end());
    if (names != again) std::abort();
    std::sort(sorted.begin(), sorted.end());
    if (sorted != names) std::abort();
    return 0;
}
