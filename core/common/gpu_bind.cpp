// gpu_bind.cpp - --gpu-bind parsing and each task's share of the step's GPUs.
#include "common/gpu_bind.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "common/error.hpp"
#include "common/gres.hpp"

namespace drover {

namespace {

// Longer lists than any node has GPUs or tasks are refused, not expanded.
constexpr std::size_t kMaxList = 4096;

std::string shown(std::string_view s) {
    return std::string(s.substr(0, 64)) + (s.size() > 64 ? "..." : "");
}

[[noreturn]] void fail(std::string_view spec, const std::string &what) {
    throw ParseError("invalid --gpu-bind argument '" + shown(spec) + "': " + what);
}

// A decimal (base 10) or hexadecimal (base 16, "0x" optional) number of at most max.
bool number(std::string_view s, int base, uint64_t max, uint64_t *out) {
    if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s.remove_prefix(2);
    if (s.empty() || s.size() > 16) return false;
    uint64_t v = 0;
    for (char c : s) {
        int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                : base == 16 && std::isxdigit(static_cast<unsigned char>(c))
                    ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                    : -1;
        if (d < 0 || (v > (max - uint64_t(d)) / uint64_t(base))) return false;
        v = v * uint64_t(base) + uint64_t(d);
    }
    *out = v;
    return true;
}

// "0*4,1*4" or "0x3,0xc": items with an optional "*N" repetition.
std::vector<uint64_t> id_list(std::string_view spec, std::string_view text, int base) {
    std::vector<uint64_t> out;
    if (text.empty()) fail(spec, "empty list");
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != ',') continue;
        std::string_view item = text.substr(start, i - start);
        start = i + 1;
        std::size_t star = item.find('*');
        uint64_t value = 0, times = 1;
        uint64_t max = base == 10 ? 63 : ~uint64_t(0); // ids name bits of a 64-bit mask
        if (!number(item.substr(0, star), base, max, &value))
            fail(spec, base == 10 ? "bad GPU id" : "bad GPU mask");
        if (star != std::string_view::npos &&
            (!number(item.substr(star + 1), 10, kMaxList, &times) || times == 0))
            fail(spec, "bad repetition count");
        if (out.size() + times > kMaxList) fail(spec, "list too long");
        out.insert(out.end(), times, value);
    }
    return out;
}

uint32_t positive_count(std::string_view spec, std::string_view text) {
    uint64_t v = 0;
    if (!number(text, 10, 1u << 20, &v) || v == 0) fail(spec, "bad count");
    return uint32_t(v);
}

std::string hex_mask(const std::vector<uint32_t> &ids) {
    uint64_t mask = 0;
    for (uint32_t id : ids)
        if (id < 64) mask |= uint64_t(1) << id;
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(mask));
    return buf;
}

std::string joined(const std::vector<uint32_t> &ids) {
    std::string out;
    for (uint32_t id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
    return out;
}

} // namespace

GpuBind parse_gpu_bind(std::string_view spec) {
    GpuBind b;
    std::string_view rest = spec;
    if (rest.substr(0, 7) == "verbose") {
        b.verbose = true;
        rest.remove_prefix(7);
        if (rest.empty()) return b;
        if (rest[0] != ',') fail(spec, "unknown binding");
        rest.remove_prefix(1);
    }
    std::size_t colon = rest.find(':');
    std::string_view kind = rest.substr(0, colon);
    std::string_view arg =
        colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    bool has_arg = colon != std::string_view::npos;
    if ((kind == "none" || kind == "closest") && !has_arg) {
        b.kind = kind == "none" ? GpuBind::Kind::None : GpuBind::Kind::Closest;
    } else if (kind == "single" && has_arg) {
        b.kind = GpuBind::Kind::Single;
        b.count = positive_count(spec, arg);
    } else if ((kind == "per_task" || kind == "per-task") && has_arg) {
        b.kind = GpuBind::Kind::PerTask;
        b.count = positive_count(spec, arg);
    } else if (kind == "map_gpu" && has_arg) {
        b.kind = GpuBind::Kind::Map;
        b.list = id_list(spec, arg, 10);
    } else if (kind == "mask_gpu" && has_arg) {
        b.kind = GpuBind::Kind::Mask;
        b.list = id_list(spec, arg, 16);
    } else {
        fail(spec, "unknown binding");
    }
    return b;
}

namespace {

// The ids a map or mask entry names, as node indexes (relative ids become step GPUs).
std::vector<uint32_t> named_gpus(const GpuBind &b, uint64_t entry,
                                 const std::vector<uint32_t> &step_gpus, bool relative) {
    std::vector<uint32_t> ids;
    for (uint32_t bit = 0; bit < 64; ++bit) {
        bool named = b.kind == GpuBind::Kind::Map ? entry == bit : (entry >> bit) & 1;
        if (!named) continue;
        if (relative) {
            if (bit < step_gpus.size()) ids.push_back(step_gpus[bit]);
        } else if (std::binary_search(step_gpus.begin(), step_gpus.end(), bit)) {
            ids.push_back(bit);
        }
    }
    return ids;
}

// A run of n step GPUs from position first, wrapping round.
std::vector<uint32_t> gpu_run(const std::vector<uint32_t> &step_gpus, uint64_t first, uint32_t n) {
    std::vector<uint32_t> ids;
    for (uint32_t k = 0; k < n && k < step_gpus.size(); ++k)
        ids.push_back(step_gpus[(first + k) % step_gpus.size()]);
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace

std::vector<uint32_t> gpus_near(const std::vector<uint32_t> &step_gpus,
                                const std::vector<std::string> &gpu_cores,
                                const std::vector<uint32_t> &task_cores) {
    std::vector<uint32_t> near;
    if (task_cores.empty()) return near;
    for (uint32_t g : step_gpus) {
        std::vector<uint32_t> cores;
        try {
            std::string_view c;
            if (g < gpu_cores.size()) c = gpu_cores[g];
            if (c.size() >= 2 && c.front() == '[' && c.back() == ']') c = c.substr(1, c.size() - 2);
            cores = parse_index_list(c);
        } catch (const ParseError &) {}
        bool close = cores.empty();
        for (uint32_t c : cores)
            close = close || std::find(task_cores.begin(), task_cores.end(), c) != task_cores.end();
        if (close) near.push_back(g);
    }
    return near;
}

TaskGpus task_gpus(const GpuBind &b, const std::vector<uint32_t> &step_gpus, uint32_t local_id,
                   bool relative, const std::vector<uint32_t> &near) {
    TaskGpus t;
    switch (b.kind) {
    case GpuBind::Kind::None:
        t.global = step_gpus;
        break;
    case GpuBind::Kind::Closest:
        t.global = near.empty() ? step_gpus : near;
        break;
    case GpuBind::Kind::Single:
        t.global = gpu_run(step_gpus, local_id / b.count, 1);
        break;
    case GpuBind::Kind::PerTask:
        t.global = gpu_run(step_gpus, uint64_t(local_id) * b.count, b.count);
        break;
    case GpuBind::Kind::Map:
    case GpuBind::Kind::Mask:
        t.global = named_gpus(b, b.list[local_id % b.list.size()], step_gpus, relative);
        if (t.global.empty() && !step_gpus.empty()) {
            t.outside_step = true;
            t.global = {step_gpus.front()};
        }
        break;
    }
    std::vector<uint32_t> shown_ids;
    for (uint32_t id : t.global)
        shown_ids.push_back(
            relative ? uint32_t(std::lower_bound(step_gpus.begin(), step_gpus.end(), id) -
                                step_gpus.begin())
                     : id);
    t.visible = joined(shown_ids);
    return t;
}

std::string gpu_bind_verbose_line(const TaskGpus &t, const std::vector<uint32_t> &step_gpus,
                                  uint32_t local_id) {
    return "gpu-bind: usable_gres=" + hex_mask(t.global) + "; bit_alloc=" + hex_mask(step_gpus) +
           "; local_inx=" + std::to_string(local_id) + "; global_list=" + joined(t.global) +
           "; local_list=" + t.visible;
}

} // namespace drover
