// fuzz_gres.cpp - fuzz target: gres.conf text, Gres= strings, --gres requests, index lists and
// --gpu-bind values.
// Anything may be refused with ParseError; what is accepted must hold together: a parsed Gres=
// list formats to text that parses back to the same list, and an index list formats and reads
// back to the same sorted indexes; an accepted --gpu-bind gives every task GPUs of the step only.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/gpu_bind.hpp"
#include "common/gres.hpp"

namespace {

void check_counts(std::string_view text, bool request) {
    std::vector<drover::GresCount> items;
    try {
        items = request ? drover::parse_gres_request(text) : drover::parse_node_gres(text);
    } catch (const drover::ParseError &) {
        return;
    }
    std::string again = drover::format_gres(items);
    // What format_gres writes must parse without error (a ParseError here is a bug).
    auto back = request ? drover::parse_gres_request(again) : drover::parse_node_gres(again);
    if (back != items) std::abort();
}

void check_index_list(std::string_view text) {
    std::vector<uint32_t> idx;
    try {
        idx = drover::parse_index_list(text);
    } catch (const drover::ParseError &) {
        return;
    }
    std::string formatted = drover::format_index_list(idx);
    std::vector<uint32_t> back = drover::parse_index_list(formatted);
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    if (back != idx) std::abort();
}

void check_gpu_bind(std::string_view text) {
    drover::GpuBind bind;
    try {
        bind = drover::parse_gpu_bind(text);
    } catch (const drover::ParseError &) {
        return;
    }
    const std::vector<uint32_t> step{1, 4, 6};
    for (bool relative : {false, true})
        for (uint32_t task = 0; task < 8; ++task)
            for (uint32_t id : drover::task_gpus(bind, step, task, relative).global)
                if (!std::binary_search(step.begin(), step.end(), id)) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        drover::GresConf conf = drover::parse_gres_conf(text);
        for (const auto &e : conf.entries) {
            if (!e.device.files.empty() && e.device.count != e.device.files.size()) std::abort();
            // A few of each line's nodes: every one of 65,536 would make this check quadratic.
            for (std::size_t i = 0; i < e.nodes.size(); i += 1 + e.nodes.size() / 8)
                (void)drover::gres_for_node(conf, e.nodes[i]);
        }
        (void)drover::gres_for_node(conf, "n1");
        (void)drover::gres_autodetect_mode(conf, "n1");
    } catch (const drover::ParseError &) {}
    if (size <= 256) {
        check_counts(text, false);
        check_counts(text, true);
        check_index_list(text);
        check_gpu_bind(text);
    }
    return 0;
}
