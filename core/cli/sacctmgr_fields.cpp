// sacctmgr_fields.cpp - sacctmgr's field table and its show tables.
#include "cli/sacctmgr_fields.hpp"

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

struct Def {
    const char *name;
    std::size_t min; // the shortest abbreviation Slurm takes
    const char *header;
    int width;
    const char *key;
};

// In Slurm's order (it takes the first name the item abbreviates; several names of one field are
// several entries). A negative width is left-justified.
constexpr Def kDefs[] = {
    {"Account", 3, "Account", 10, "account"},
    {"Acct", 4, "Account", 10, "account"},
    {"AdminLevel", 2, "Admin", 9, "adminlevel"},
    {"TRES", 2, "TRES", 20, "tres"},
    {"ClusterNodes", 8, "Cluster Nodes", 20, "clusternodes"},
    {"Clusters", 2, "Cluster", 10, "cluster"},
    {"ControlHost", 8, "ControlHost", 15, "controlhost"},
    {"ControlPort", 8, "ControlPort", 12, "controlport"},
    {"CPUCount", 2, "CPU Cnt", 7, "cpus"},
    {"DefaultAccount", 8, "Def Acct", 10, "defaultaccount"},
    {"DefaultQOS", 8, "Def QOS", 9, "defaultqos"},
    {"Description", 3, "Descr", 20, "description"},
    {"Duration", 2, "Duration", 13, "duration"},
    {"EventRaw", 6, "EventRaw", 8, "eventraw"},
    {"Event", 2, "Event", 7, "event"},
    {"Features", 3, "Features", 20, "features"},
    {"Federation", 3, "Federation", 10, "federation"},
    {"FedState", 4, "FedState", 12, "fedstate"},
    {"Flags", 2, "Flags", 20, "flags"},
    {"GraceTime", 3, "GraceTime", 10, "gracetime"},
    {"GrpTRES", 7, "GrpTRES", 13, "grptres"},
    {"GrpTRESMins", 7, "GrpTRESMins", 13, "grptresmins"},
    {"GrpTRESRunMins", 7, "GrpTRESRunMins", 13, "grptresrunmins"},
    {"GrpJobs", 4, "GrpJobs", 7, "grpjobs"},
    {"GrpSubmitJobs", 4, "GrpSubmit", 9, "grpsubmitjobs"},
    {"GrpWall", 4, "GrpWall", 11, "grpwall"},
    {"ID", 2, "ID", 6, "id"},
    {"MaxTRES", 7, "MaxTRES", 13, "maxtres"},
    {"MaxTRESPerJob", 11, "MaxTRES", 13, "maxtres"},
    {"MaxTRESPerNode", 11, "MaxTRESPerNode", 14, "maxtrespernode"},
    {"MaxTRESMinsPerJob", 8, "MaxTRESMins", 13, "maxtresmins"},
    {"MaxTRESPerAccount", 11, "MaxTRESPA", 13, "maxtresperaccount"},
    {"MaxTRESPerAcct", 11, "MaxTRESPA", 13, "maxtresperaccount"},
    {"MaxTRESPA", 9, "MaxTRESPA", 13, "maxtresperaccount"},
    {"MaxTRESPerUser", 11, "MaxTRESPU", 13, "maxtresperuser"},
    {"MaxTRESPU", 9, "MaxTRESPU", 13, "maxtresperuser"},
    {"MaxJobs", 4, "MaxJobs", 7, "maxjobs"},
    {"MaxJobsPerAccount", 11, "MaxJobsPA", 9, "maxjobsperaccount"},
    {"MaxJobsPerAcct", 11, "MaxJobsPA", 9, "maxjobsperaccount"},
    {"MaxJobsPA", 9, "MaxJobsPA", 9, "maxjobsperaccount"},
    {"MaxJobsPerUser", 11, "MaxJobsPU", 9, "maxjobsperuser"},
    {"MaxJobsPU", 9, "MaxJobsPU", 9, "maxjobsperuser"},
    {"MaxSubmitJobs", 4, "MaxSubmit", 9, "maxsubmitjobs"},
    {"MaxSubmitJobsPerAccount", 17, "MaxSubmitPA", 11, "maxsubmitjobsperaccount"},
    {"MaxSubmitJobsPerAcct", 17, "MaxSubmitPA", 11, "maxsubmitjobsperaccount"},
    {"MaxSubmitJobsPA", 15, "MaxSubmitPA", 11, "maxsubmitjobsperaccount"},
    {"MaxSubmitPA", 11, "MaxSubmitPA", 11, "maxsubmitjobsperaccount"},
    {"MaxSubmitJobsPerUser", 10, "MaxSubmitPU", 11, "maxsubmitjobsperuser"},
    {"MaxSubmitJobsPU", 10, "MaxSubmitPU", 11, "maxsubmitjobsperuser"},
    {"MaxSubmitPU", 6, "MaxSubmitPU", 11, "maxsubmitjobsperuser"},
    {"MaxWallDurationPerJob", 4, "MaxWall", 11, "maxwall"},
    {"MinTRESPerJob", 7, "MinTRES", 13, "mintres"},
    {"Name", 2, "Name", 10, "name"},
    {"NodeNames", 5, "NodeName", -15, "nodename"},
    {"Organization", 1, "Org", 20, "organization"},
    {"ParentName", 7, "ParentName", 10, "parentname"},
    {"Partition", 4, "Partition", 10, "partition"},
    {"PreemptMode", 8, "PreemptMode", 11, "preemptmode"}, // before Preempt, as in Slurm
    {"Preempt", 7, "Preempt", 10, "preempt"},
    {"PreemptExemptTime", 8, "PreemptExemptTime", 19, "preemptexempttime"},
    {"Priority", 3, "Priority", 10, "priority"},
    {"QOSLevel", 3, "QOS", 20, "qos"},
    {"Reason", 1, "Reason", 30, "reason"},
    {"RPC", 1, "RPC", 5, "rpc"},
    {"Share", 1, "Share", 9, "fairshare"},
    {"FairShare", 2, "Share", 9, "fairshare"},
    {"StateRaw", 6, "StateRaw", 8, "stateraw"},
    {"State", 1, "State", 6, "state"},
    {"TimeEnd", 6, "TimeEnd", 19, "timeend"},
    {"End", 2, "TimeEnd", 19, "timeend"},
    {"TimeStart", 7, "TimeStart", 19, "timestart"},
    {"Start", 3, "TimeStart", 19, "timestart"},
    {"UsageFactor", 6, "UsageFactor", 11, "usagefactor"},
    {"UsageThreshold", 6, "UsageThres", 10, "usagethreshold"},
    {"User", 1, "User", 10, "user"},
};

} // namespace

std::vector<SacctmgrField> parse_sacctmgr_format(const std::vector<std::string> &items) {
    std::vector<SacctmgrField> out;
    for (const auto &raw : items) {
        std::string item(trim(raw));
        if (item.empty()) continue;
        std::string name = item;
        int width = 0;
        bool width_set = false;
        if (auto pct = item.find('%'); pct != std::string::npos) {
            name = item.substr(0, pct);
            std::string_view w = std::string_view(item).substr(pct + 1);
            bool neg = !w.empty() && w[0] == '-';
            auto n = parse_u32(neg ? w.substr(1) : w);
            if (!n) throw ParseError("Unknown field '" + item + "'");
            width = neg ? -int(*n) : int(*n);
            width_set = *n != 0;
        }
        const Def *def = nullptr;
        for (const auto &d : kDefs)
            if (iequals(name, d.name) ||
                (name.size() >= d.min && name.size() <= std::string_view(d.name).size() &&
                 istarts_with(d.name, name))) {
                def = &d;
                break;
            }
        if (!def) throw ParseError("Unknown field '" + name + "'");
        out.push_back({def->header, width_set ? width : def->width, def->key});
    }
    return out;
}

std::vector<std::string> sacctmgr_default_format(std::string_view entity) {
    if (entity == "qos") // Slurm's sacctmgr_list_qos, its names as it writes them
        return split("Name,Prio,GraceT,Preempt,PreemptE,PreemptM,Flags%40,UsageThres,UsageFactor,"
                     "GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpJ,GrpS,GrpW,MaxTRES,MaxTRESPerN,"
                     "MaxTRESMins,MaxW,MaxTRESPerUser,MaxJobsPerUser,MaxSubmitJobsPerUser,"
                     "MaxTRESPerAcct,MaxJobsPerAcct,MaxSubmitJobsPerAcct,MinTRES",
                     ',');
    if (entity == "cluster")
        return {"Cluster",   "ControlHost", "ControlPort", "RPC",       "Share",
                "GrpJobs",   "GrpTRES",     "GrpSubmit",   "MaxJobs",   "MaxTRES",
                "MaxSubmit", "MaxWall",     "QOS",         "DefaultQOS"};
    if (entity == "federation") return {"Federation", "Cluster", "ID%2", "Features", "FedState"};
    if (entity == "account") return {"Account", "Description", "Organization"};
    if (entity == "user") return {"User", "DefaultAccount", "AdminLevel"};
    return {"Cluster",     "Account",     "User",    "Partition",      "Share",
            "Priority",    "GrpJobs",     "GrpTRES", "GrpSubmit",      "GrpWall",
            "GrpTRESMins", "MaxJobs",     "MaxTRES", "MaxTRESPerNode", "MaxSubmit",
            "MaxWall",     "MaxTRESMins", "QOS",     "DefaultQOS",     "GrpTRESRunMins"};
}

void sacctmgr_entity_keys(std::string_view entity, std::vector<SacctmgrField> &fields) {
    const bool qos = entity == "qos";
    for (auto &f : fields) {
        if (qos && f.key == "maxjobs")
            f.key = "maxjobsperuser";
        else if (qos && f.key == "maxsubmitjobs")
            f.key = "maxsubmitjobsperuser";
        else if (!qos && f.key == "maxjobsperuser")
            f.key = "maxjobs";
        else if (!qos && f.key == "maxsubmitjobsperuser")
            f.key = "maxsubmitjobs";
    }
}

std::string render_sacctmgr(const std::vector<SacctmgrField> &fields,
                            const std::vector<SacctmgrRow> &rows, FieldLayout layout, bool header) {
    std::string out;
    if (header) {
        std::vector<std::string> names;
        std::vector<int> widths;
        for (const auto &f : fields) {
            names.push_back(f.header);
            widths.push_back(f.width);
        }
        append_header(out, names, widths, layout, "|");
    }
    for (const auto &row : rows)
        for (std::size_t i = 0; i < fields.size(); ++i) {
            std::string_view v;
            for (const auto &[k, val] : row)
                if (!fields[i].key.empty() && k == fields[i].key) v = val;
            append_field(out, v, fields[i].width, i + 1 == fields.size(), layout, "|");
        }
    return out;
}

} // namespace drover::cli
