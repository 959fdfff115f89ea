// sstat_fields.cpp - sstat columns.
#include "cli/sstat_fields.hpp"

#include "cli/text.hpp"
#include "cli/sacct_steps.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

struct Known {
    const char *name;
    int width;
};

const Known kFields[] = {
    {"AveCPU", 10},
    {"AveCPUFreq", 10},
    {"AveDiskRead", 14},
    {"AveDiskWrite", 14},
    {"AvePages", 10},
    {"AveRSS", 10},
    {"AveVMSize", 10},
    {"ConsumedEnergy", 14},
    {"JobID", 12},
    {"MaxDiskRead", 12},
    {"MaxDiskReadNode", 15},
    {"MaxDiskReadTask", 15},
    {"MaxDiskWrite", 12},
    {"MaxDiskWriteNode", 16},
    {"MaxDiskWriteTask", 16},
    {"MaxPages", 8},
    {"MaxPagesNode", 12},
    {"MaxPagesTask", 12},
    {"MaxRSS", 10},
    {"MaxRSSNode", 10},
    {"MaxRSSTask", 10},
    {"MaxVMSize", 10},
    {"MaxVMSizeNode", 14},
    {"MaxVMSizeTask", 14},
    {"MinCPU", 10},
    {"MinCPUNode", 10},
    {"MinCPUTask", 10},
    {"Nodelist", 20},
    {"NTasks", 8},
    {"Pids", 20},
    {"ReqCPUFreqMin", 13},
    {"ReqCPUFreqMax", 13},
    {"ReqCPUFreqGov", 13},
    {"TotalCPU", 10},
    {"UserCPU", 10},
    {"SystemCPU", 10},
};

std::string value(const SstatField &f, const SstatRow &r, char units) {
    const StepUsageSummary &u = r.usage;
    const std::string &n = f.name;
    auto size = [&](uint64_t b) { return sacct_size(b, units); };
    auto task = [](uint32_t t) { return std::to_string(t); };
    if (n == "JobID") return r.job_step;
    if (n == "AveCPU") return sacct_cpu_time(u.ave_cpu_usec, true);
    if (n == "MinCPU") return sacct_cpu_time(u.min_cpu_usec, true);
    if (n == "MinCPUNode") return u.min_cpu_node;
    if (n == "MinCPUTask") return task(u.min_cpu_task);
    if (n == "TotalCPU") return sacct_cpu_time(u.user_cpu_usec + u.sys_cpu_usec);
    if (n == "UserCPU") return sacct_cpu_time(u.user_cpu_usec);
    if (n == "SystemCPU") return sacct_cpu_time(u.sys_cpu_usec);
    if (n == "AveRSS") return size(u.ave_rss);
    if (n == "MaxRSS") return size(u.max_rss);
    if (n == "MaxRSSNode") return u.max_rss_node;
    if (n == "MaxRSSTask") return task(u.max_rss_task);
    if (n == "AveVMSize") return size(u.ave_vsize);
    if (n == "MaxVMSize") return size(u.max_vsize);
    if (n == "MaxVMSizeNode") return u.max_vsize_node;
    if (n == "MaxVMSizeTask") return task(u.max_vsize_task);
    if (n == "AveDiskRead") return size(u.ave_disk_read);
    if (n == "MaxDiskRead") return size(u.max_disk_read);
    if (n == "MaxDiskReadNode") return u.max_disk_read_node;
    if (n == "MaxDiskReadTask") return task(u.max_disk_read_task);
    if (n == "AveDiskWrite") return size(u.ave_disk_write);
    if (n == "MaxDiskWrite") return size(u.max_disk_write);
    if (n == "MaxDiskWriteNode") return u.max_disk_write_node;
    if (n == "MaxDiskWriteTask") return task(u.max_disk_write_task);
    if (n == "NTasks") return std::to_string(u.tasks);
    if (n == "Nodelist") return r.node_list;
    if (n == "Pids") {
        std::string p;
        for (int32_t pid : r.pids) p += (p.empty() ? "" : ",") + std::to_string(pid);
        return p;
    }
    if (n == "ConsumedEnergy" || n == "AvePages" || n == "MaxPages" || n == "MaxPagesTask")
        return "0";
    if (n == "MaxPagesNode") return u.max_rss_node;
    if (n == "AveCPUFreq") return "0";
    if (n.rfind("ReqCPUFreq", 0) == 0) return "Unknown";
    return "";
}

} // namespace

std::string sstat_default_format() {
    return "JobID,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS,MaxRSSNode,MaxRSSTask,"
           "AveRSS,MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode,MinCPUTask,AveCPU,"
           "NTasks,AveCPUFreq,ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ConsumedEnergy,MaxDiskRead,"
           "MaxDiskReadNode,MaxDiskReadTask,AveDiskRead,MaxDiskWrite,MaxDiskWriteNode,"
           "MaxDiskWriteTask,AveDiskWrite";
}

std::string sstat_field_names() {
    std::string out;
    int col = 0;
    for (const auto &k : kFields) {
        out += fit(k.name, 18, false);
        if (++col % 4 == 0) out += "\n";
    }
    if (col % 4) out += "\n";
    return out;
}

std::vector<SstatField> parse_sstat_format(std::string_view spec) {
    std::vector<SstatField> out;
    for (const auto &item : split(spec, ',')) {
        std::string name = std::string(trim(item));
        int width = -1;
        if (auto pct = name.find('%'); pct != std::string::npos) {
            auto w = parse_u32(name.substr(pct + 1));
            if (!w) throw ParseError("Invalid field requested: \"" + name + "\"");
            width = int(*w);
            name.resize(pct);
        }
        const Known *found = nullptr;
        for (const auto &k : kFields)
            if (iequals(k.name, name)) found = &k;
        if (!found) throw ParseError("Invalid field requested: \"" + name + "\"");
        out.push_back({found->name, width >= 0 ? width : found->width});
    }
    if (out.empty()) throw ParseError("Invalid field requested: \"\"");
    return out;
}

std::string render_sstat(const std::vector<SstatField> &fields, const std::vector<SstatRow> &rows,
                         bool noheader, int parsable, char units) {
    std::string out;
    auto line = [&](auto cell) {
        std::string l;
        for (std::size_t i = 0; i < fields.size(); ++i) {
            std::string v = cell(fields[i]);
            if (parsable) {
                l += v;
                if (parsable == 1 || i + 1 < fields.size()) l += '|';
            } else {
                l += fit_sacct(v, fields[i].width);
            }
        }
        out += l + "\n";
    };
    if (!noheader) {
        line([](const SstatField &f) { return f.name; });
        if (!parsable)
            line([](const SstatField &f) { return std::string(std::size_t(f.width), '-'); });
    }
    for (const auto &r : rows) line([&](const SstatField &f) { return value(f, r, units); });
    return out;
}

} // namespace drover::cli
