// fuzz_cpu_bind.cpp - fuzz target: --cpu-bind and --mem-bind values, laid out on a node of two
// sockets of two cores of two threads for 1-9 tasks. Only ParseError may refuse a value; an
// accepted one gives one CPU set (and NUMA node set) per task, each of the node's only, and a
// verbose line naming its mask.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "common/cpu_bind.hpp"
#include "common/error.hpp"
#include "common/mem_bind.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > 4096) return 0;
    std::string text(reinterpret_cast<const char *>(data) + 2, size - 2);
    uint32_t tasks = 1 + data[0] % 9, cpt = 1 + data[1] % 4;
    static const char *kDist[] = {"", "block", "cyclic", "fcyclic"};
    drover::BindLayout layout{
        drover::uniform_topology(2, 2, 2), {}, tasks, cpt, kDist[data[1] / 4 % 4]};
    if (data[0] & 0x80) layout.step = {1, 2, 5};
    try {
        drover::CpuBind b = drover::parse_cpu_bind(text);
        auto sets = drover::task_cpus(b, layout);
        if (sets.size() != tasks) std::abort();
        for (const auto &s : sets)
            for (uint32_t c : s)
                if (c >= 8) std::abort();
        std::string line = drover::cpu_bind_verbose_line(b, "n1", 0, 0, 1, sets[0]);
        if (line.find(drover::cpu_mask_hex(sets[0])) == std::string::npos) std::abort();
    } catch (const drover::ParseError &) {}
    try {
        drover::MemBind m = drover::parse_mem_bind(text);
        std::vector<std::vector<uint32_t>> cpus(tasks, std::vector<uint32_t>{0, 7});
        auto mems = drover::task_mems(m, layout.node, cpus);
        if (mems.size() != tasks) std::abort();
        for (const auto &s : mems)
            for (uint32_t n : s)
                if (n >= 2) std::abort();
        (void)drover::mem_bind_verbose_line(m, "n1", 0, 0, 1, mems[0]);
    } catch (const drover::ParseError &) {}
    return 0;
}
