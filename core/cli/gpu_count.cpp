// gpu_count.cpp - GPU counts as the allocation commands take them.
#include "cli/gpu_count.hpp"

#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

GpuCount gpu_count(std::string_view v, const char *what) {
    auto bad = [&] { return ParseError(std::string("invalid ") + what + " " + quoted(v)); };
    GpuCount g;
    uint64_t total = 0;
    for (const auto &item : split(v, ',', /*keep_empty=*/true)) {
        std::string_view it = trim(item);
        std::string_view count = it;
        if (auto colon = it.rfind(':'); colon != std::string_view::npos) {
            std::string_view type = it.substr(0, colon);
            if (type.empty() || type.find(':') != std::string_view::npos) throw bad();
            if (!g.type.empty() && g.type != type) g.mixed = true;
            g.type = std::string(type);
            count = it.substr(colon + 1);
        } else if (!g.type.empty()) {
            g.mixed = true;
        }
        auto n = parse_u32(count);
        if (!n) throw bad();
        total += *n;
    }
    if (total == 0 || total > 0xffffffffu) throw bad();
    g.count = uint32_t(total);
    return g;
}

} // namespace drover::cli
