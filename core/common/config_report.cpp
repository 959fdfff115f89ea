// config_report.cpp - the table behind `scontrol show config`. Order, units and defaults follow
// Slurm 23.11's list (slurm_ctl_conf_2_key_pairs in src/api/config_info.c; defaults from
// slurm.conf(5) and read_config). Since 23.11 Slurm prints "(null)" for a plugin type left unset
// (its */none plugins are gone), so the unset plugin types below read "(null)". Keys Slurm 23.11
// no longer prints (CoreSpecPlugin, PowerPlugin, RoutePlugin, JobCredential*) are not listed, nor
// HASH_VAL, MULTIPLE_SLURMD and NEXT_JOB_ID (Drover has no configuration hash, no such build, and
// the next job id belongs to the job manager).
#include "common/config_report.hpp"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <iterator>

#include "common/ascii.hpp"
#include "common/config_parse.hpp"
#include "common/timefmt.hpp"
#include "common/version.hpp"

namespace drover {

namespace {

using Lines = std::vector<ConfigLine>;

struct Src {
    const Config &conf;
    const ConfigFacts &facts;
    const PowerSaveConf &power() const { return facts.power ? *facts.power : conf.power; }
};

// One key. Its value is Drover's (a text or number member of Config, or what get computes); when
// that is empty, or Drover has none, it is `fallback`, Slurm's default as Slurm prints it. A key
// whose name or presence depends on the values (DefMemPerCPU, SlurmctldHost[N]) has `emit`.
struct Row {
    const char *key = nullptr;
    const char *fallback = nullptr;
    std::string Config::*text = nullptr;
    uint32_t Config::*number = nullptr;
    const char *unit = "";
    std::string (*get)(const Src &) = nullptr;
    void (*emit)(const Src &, Lines &) = nullptr;
    bool raw = false; // as written in slurm.conf (what reads it takes it from conf.raw), + unit
    std::string PowerSaveConf::*power_text = nullptr; // conf.power's text, or (null)
    uint32_t PowerSaveConf::*power_number = nullptr;  // conf.power's number, + unit
};

constexpr Row fixed(const char *key, const char *slurm_default) {
    return {key, slurm_default};
}
constexpr Row text(const char *key, std::string Config::*field, const char *slurm_default) {
    return {key, slurm_default, field};
}
constexpr Row num(const char *key, uint32_t Config::*field, const char *unit = "") {
    return {key, nullptr, nullptr, field, unit};
}
constexpr Row got(const char *key, std::string (*get)(const Src &),
                  const char *slurm_default = nullptr) {
    return {key, slurm_default, nullptr, nullptr, "", get};
}
constexpr Row emit(const char *key, void (*fn)(const Src &, Lines &)) {
    return {key, nullptr, nullptr, nullptr, "", nullptr, fn};
}
constexpr Row raw(const char *key, const char *slurm_default, const char *unit = "") {
    return {key, slurm_default, nullptr, nullptr, unit, nullptr, nullptr, true};
}
constexpr Row power_text(const char *key, std::string PowerSaveConf::*field) {
    Row r{key, "(null)"};
    r.power_text = field;
    return r;
}
constexpr Row power_num(const char *key, uint32_t PowerSaveConf::*field, const char *unit) {
    Row r{key};
    r.power_number = field;
    r.unit = unit;
    return r;
}

// "N min" or UNLIMITED, as Slurm shows it (Reservations reads it from conf.raw).
std::string resv_over_run(const Src &s) {
    auto it = s.conf.raw.find("resvoverrun");
    if (it == s.conf.raw.end()) return {};
    std::string v = ascii_upper(it->second);
    return v == "UNLIMITED" ? v : it->second + " min";
}

// Keys no Config member holds (the commands or node daemons read them): as written, or "".
std::string raw_key(const Src &s, const char *key) {
    auto it = s.conf.raw.find(key);
    return it == s.conf.raw.end() ? std::string() : it->second;
}
std::string propagate_limits(const Src &s) {
    return ascii_upper(raw_key(s, "propagateresourcelimits"));
}
std::string propagate_except(const Src &s) {
    return ascii_upper(raw_key(s, "propagateresourcelimitsexcept"));
}

// Power saving: SuspendTime INFINITE (23.11; older Slurm said NONE), SuspendTimeout 0 NONE, as
// Slurm prints them; ReconfigFlags in Slurm's spelling and order.
std::string suspend_time(const Src &s) {
    int64_t t = s.power().suspend_time;
    return t == kPowerInfinite ? "INFINITE" : std::to_string(t) + " sec";
}
std::string suspend_timeout(const Src &s) {
    uint32_t t = s.power().suspend_timeout;
    return t == 0 ? "NONE" : std::to_string(t) + " sec";
}
std::string exc_parts(const Src &s) {
    return detail::join_list(s.power().exc_parts);
}
std::string exc_states(const Src &s) {
    return detail::join_list(s.power().exc_states);
}
std::string reconfig_flags(const Src &s) {
    return detail::reconfig_flags_text(raw_key(s, "reconfigflags")).value_or("");
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

// DefMemPerCPU or DefMemPerNode (Slurm keeps one of them), UNLIMITED when neither is set.
void def_mem(const Src &s, Lines &out) {
    const Config &c = s.conf;
    if (c.def_mem_per_cpu_mb)
        out.emplace_back("DefMemPerCPU", std::to_string(c.def_mem_per_cpu_mb));
    else if (c.def_mem_per_node_mb)
        out.emplace_back("DefMemPerNode", std::to_string(c.def_mem_per_node_mb));
    else
        out.emplace_back("DefMemPerNode", "UNLIMITED");
}

// Slurm prints SelectTypeParameters only when it has some: as given (upper case, as Slurm's
// select_type_param_string writes them), else cons_tres's default CR_Core_Memory. select/linear
// with none given has no line, as in Slurm.
void select_params(const Src &s, Lines &out) {
    const Config &c = s.conf;
    if (!c.select_type_parameters.empty())
        out.emplace_back("SelectTypeParameters", upper(c.select_type_parameters));
    else if (upper(c.select_type) == "SELECT/CONS_TRES")
        out.emplace_back("SelectTypeParameters", "CR_CORE_MEMORY");
}

// SlurmctldHost[0], [1]...: "name", or "name(addr)" when the address differs.
void ctld_hosts(const Src &s, Lines &out) {
    const auto &hosts = s.conf.controllers;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        std::string v = hosts[i].name;
        if (hosts[i].addr != hosts[i].name) v += "(" + hosts[i].addr + ")";
        out.emplace_back("SlurmctldHost[" + std::to_string(i) + "]", std::move(v));
    }
}

// Slurm's private_data_string: the kinds hidden, in its order, or "none".
// PriorityType, and with a priority plugin what multifactor reads, as Slurm lists them: the
// plugin's keys as written (their defaults otherwise), the core's decay times formatted.
void priority(const Src &s, Lines &out) {
    const Config &c = s.conf;
    if (c.priority_type.empty()) {
        out.emplace_back("PriorityType", "priority/basic");
        return;
    }
    auto conf = [&](const char *key, const char *dflt) {
        auto it = c.raw.find(ascii_lower(key));
        out.emplace_back(key, it == c.raw.end() ? std::string(dflt) : it->second);
    };
    out.emplace_back("PriorityDecayHalfLife",
                     format_elapsed(int64_t(c.priority_decay_half_life_s)));
    out.emplace_back("PriorityCalcPeriod", format_elapsed(int64_t(c.priority_calc_period_s)));
    conf("PriorityFavorSmall", "No");
    conf("PriorityFlags", "");
    conf("PriorityMaxAge", "7-00:00:00");
    out.emplace_back("PriorityUsageResetPeriod", c.priority_usage_reset_period);
    out.emplace_back("PriorityType", c.priority_type);
    for (const char *w : {"PriorityWeightAge", "PriorityWeightAssoc", "PriorityWeightFairShare",
                          "PriorityWeightJobSize", "PriorityWeightPartition", "PriorityWeightQOS"})
        conf(w, "0");
    conf("PriorityWeightTRES", "(null)");
}

std::string preempt_exempt(const Src &s) {
    return format_elapsed(int64_t(s.conf.preempt_exempt_time_s));
}

std::string private_data(const Src &s) {
    const PrivateData &p = s.conf.private_data;
    const std::pair<bool, const char *> kinds[] = {{p.accounts, "accounts"},
                                                   {p.cloud, "cloud"},
                                                   {p.events, "events"},
                                                   {p.jobs, "jobs"},
                                                   {p.nodes, "nodes"},
                                                   {p.partitions, "partitions"},
                                                   {p.reservations, "reservations"},
                                                   {p.usage, "usage"},
                                                   {p.users, "users"}};
    std::string out;
    for (const auto &[on, name] : kinds)
        if (on) out += (out.empty() ? "" : ",") + std::string(name);
    return out.empty() ? "none" : out;
}

// Slurm's default MaxDBDMsgs: twice MaxJobCount plus four per node, at least 10000.
std::string max_dbd_msgs(const Src &s) {
    uint64_t n = uint64_t{2} * s.conf.max_job_count + uint64_t{4} * s.conf.nodes.size();
    return std::to_string(std::max<uint64_t>(n, 10000));
}

// Slurm looks for plugstack.conf beside slurm.conf.
std::string plugstack(const Src &s) {
    if (s.conf.path.empty()) return "";
    return (std::filesystem::path(s.conf.path).parent_path() / "plugstack.conf").string();
}

// Slurm 23.11's list, in its order; Drover's own lines sit beside their neighbours.
const Row kRows[] = {
    fixed("AccountingStorageBackupHost", "(null)"),
    text("AccountingStorageEnforce", &Config::accounting_storage_enforce, "none"),
    text("AccountingStorageHost", &Config::accounting_storage_host, "localhost"),
    fixed("AccountingStorageExternalHost", "(null)"),
    fixed("AccountingStorageParameters", "(null)"),
    text("AccountingStoragePort", &Config::accounting_storage_port, "0"),
    fixed("AccountingStorageTRES", "cpu,mem,energy,node,billing,fs/disk,vmem,pages"),
    text("AccountingStorageType", &Config::accounting_storage_type, "(null)"),
    text("AccountingStorageUser", &Config::accounting_storage_user, "root"),
    fixed("AccountingStoreFlags", "(null)"),
    fixed("AcctGatherEnergyType", "(null)"),
    fixed("AcctGatherFilesystemType", "(null)"),
    fixed("AcctGatherInterconnectType", "(null)"),
    fixed("AcctGatherNodeFreq", "0 sec"),
    fixed("AcctGatherProfileType", "(null)"),
    fixed("AllowSpecResourcesUsage", "No"),
    text("AuthAltTypes", &Config::auth_alt_types, "(null)"),
    text("AuthAltParameters", &Config::auth_alt_parameters, "(null)"),
    text("AuthInfo", &Config::auth_info, "(null)"),
    text("AuthType", &Config::auth_type, "(null)"),
    power_num("BatchStartTimeout", &PowerSaveConf::batch_start_timeout, " sec"),
    text("BcastExclude", &Config::bcast_exclude, "/lib,/usr/lib,/lib64,/usr/lib64"),
    text("BcastParameters", &Config::bcast_parameters, "(null)"),
    got("BOOT_TIME", [](const Src &s) { return format_timestamp(s.facts.boot_time); }),
    fixed("BurstBufferType", "(null)"),
    fixed("CliFilterPlugins", "(null)"),
    text("ClusterName", &Config::cluster_name, "(null)"),
    raw("CommunicationParameters", "(null)"),
    fixed("CompleteWait", "0 sec"),
    fixed("CpuFreqDef", "Unknown"),
    fixed("CpuFreqGovernors", "OnDemand,Performance,UserSpace"),
    fixed("CredType", "cred/munge"),
    fixed("DebugFlags", "(null)"),
    emit("DefMemPerNode", def_mem),
    text("DependencyParameters", &Config::dependency_parameters, "(null)"),
    fixed("DisableRootJobs", "No"),
    fixed("EioTimeout", "60"),
    fixed("EnforcePartLimits", "NO"),
    text("Epilog", &Config::epilog, "(null)"),
    fixed("EpilogMsgTime", "2000 usec"),
    fixed("EpilogSlurmctld", "(null)"),
    fixed("ExtSensorsType", "(null)"),
    fixed("ExtSensorsFreq", "0 sec"),
    text("FederationParameters", &Config::federation_parameters, "(null)"),
    num("FirstJobId", &Config::first_job_id),
    fixed("GetEnvTimeout", "2 sec"),
    fixed("GresTypes", "(null)"),
    fixed("GpuFreqDef", "(null)"),
    fixed("GroupUpdateForce", "1"),
    fixed("GroupUpdateTime", "600 sec"),
    fixed("HealthCheckInterval", "0 sec"),
    fixed("HealthCheckNodeState", "ANY"),
    fixed("HealthCheckProgram", "(null)"),
    fixed("InactiveLimit", "0 sec"),
    fixed("InteractiveStepOptions", "--interactive --preserve-env --pty $SHELL"),
    text("JobAcctGatherFrequency", &Config::jobacct_gather_frequency, "30"),
    text("JobAcctGatherType", &Config::jobacct_gather_type, "(null)"),
    fixed("JobAcctGatherParams", "(null)"),
    fixed("JobCompHost", "localhost"),
    fixed("JobCompLoc", "(null)"),
    fixed("JobCompParams", "(null)"),
    fixed("JobCompPort", "0"),
    fixed("JobCompType", "(null)"),
    fixed("JobCompUser", "root"),
    fixed("JobContainerType", "(null)"),
    fixed("JobDefaults", "(null)"),
    fixed("JobFileAppend", "0"),
    fixed("JobRequeue", "1"),
    raw("JobSubmitPlugins", "(null)"),
    fixed("KillOnBadExit", "0"),
    num("KillWait", &Config::kill_wait, " sec"),
    fixed("LaunchParameters", "(null)"),
    text("Licenses", &Config::licenses, "(null)"),
    fixed("LogTimeFormat", "iso8601_ms"),
    fixed("MailDomain", "(null)"),
    fixed("MailProg", "/bin/mail"),
    num("MaxArraySize", &Config::max_array_size),
    fixed("MaxBatchRequeue", "5"),
    got("MaxDBDMsgs", max_dbd_msgs),
    num("MaxJobCount", &Config::max_job_count),
    num("MaxJobId", &Config::max_job_id),
    fixed("MaxMemPerNode", "UNLIMITED"),
    got("MaxNodeCount", [](const Src &s) { return std::to_string(s.conf.nodes.size()); }),
    fixed("MaxStepCount", "40000"),
    fixed("MaxTasksPerNode", "512"),
    fixed("MCSPlugin", "(null)"),
    fixed("MCSParameters", "(null)"),
    raw("MetricsParameters", "(null)"),
    raw("MetricsType", "(null)"),
    num("MessageTimeout", &Config::message_timeout, " sec"),
    num("MinJobAge", &Config::min_job_age, " sec"),
    text("MpiDefault", &Config::mpi_default, "none"),
    text("MpiParams", &Config::mpi_params, "(null)"),
    raw("NodeFeaturesPlugins", "(null)"),
    fixed("OverTimeLimit", "0 min"),
    text("PluginDir", &Config::plugin_dir, "(built-in)"),
    got("PlugStackConfig", plugstack, "(null)"),
    text("PreemptMode", &Config::preempt_mode, "OFF"),
    fixed("PreemptParameters", "(null)"),
    text("PreemptType", &Config::preempt_type, "(null)"),
    got("PreemptExemptTime", preempt_exempt),
    fixed("PrEpParameters", "(null)"),
    fixed("PrEpPlugins", "prep/script"),
    fixed("PriorityParameters", "(null)"),
    fixed("PrioritySiteFactorParameters", "(null)"),
    fixed("PrioritySiteFactorPlugin", "(null)"),
    // priority/basic unless PriorityType names a plugin (23.11's default is multifactor; Drover
    // keeps basic, whose numbers sites without a priority policy already see).
    emit("PriorityType", priority),
    got("PrivateData", private_data),
    text("ProctrackType", &Config::proctrack_type, "(null)"),
    text("Prolog", &Config::prolog, "(null)"),
    fixed("PrologEpilogTimeout", "65534"),
    fixed("PrologSlurmctld", "(null)"),
    fixed("PrologFlags", "(null)"),
    fixed("PropagatePrioProcess", "0"),
    got("PropagateResourceLimits", propagate_limits, "ALL"),
    got("PropagateResourceLimitsExcept", propagate_except, "(null)"),
    raw("RebootProgram", "(null)"),
    got("ReconfigFlags", reconfig_flags, "(null)"),
    raw("RequeueExit", "(null)"),
    raw("RequeueExitHold", "(null)"),
    power_text("ResumeFailProgram", &PowerSaveConf::resume_fail_program),
    power_text("ResumeProgram", &PowerSaveConf::resume_program),
    power_num("ResumeRate", &PowerSaveConf::resume_rate, " nodes/min"),
    power_num("ResumeTimeout", &PowerSaveConf::resume_timeout, " sec"),
    fixed("ResvEpilog", "(null)"),
    got("ResvOverRun", resv_over_run, "0 min"),
    fixed("ResvProlog", "(null)"),
    num("ReturnToService", &Config::return_to_service),
    text("SchedulerParameters", &Config::scheduler_parameters, "(null)"),
    fixed("SchedulerTimeSlice", "30 sec"),
    text("SchedulerType", &Config::scheduler_type, "(null)"),
    fixed("ScronParameters", "(null)"),
    text("SelectType", &Config::select_type, "(null)"),
    emit("SelectTypeParameters", select_params),
    got("SlurmUser",
        [](const Src &s) {
            return s.conf.slurm_user + "(" + std::to_string(s.facts.slurm_uid) + ")";
        }),
    fixed("SlurmctldAddr", "(null)"),
    fixed("SlurmctldDebug", "info"),
    emit("SlurmctldHost", ctld_hosts),
    text("SlurmctldLogFile", &Config::slurmctld_log_file, "(null)"),
    got("SlurmctldPort", [](const Src &s) { return std::to_string(s.conf.slurmctld_port); }),
    raw("SlurmctldSyslogDebug", "(null)"),
    fixed("SlurmctldPrimaryOffProg", "(null)"),
    fixed("SlurmctldPrimaryOnProg", "(null)"),
    num("SlurmctldTimeout", &Config::slurmctld_timeout, " sec"),
    raw("SlurmctldParameters", "(null)"),
    fixed("SlurmdDebug", "info"),
    text("SlurmdLogFile", &Config::slurmd_log_file, "(null)"),
    text("SlurmdParameters", &Config::slurmd_parameters, "(null)"),
    raw("SlurmdPidFile", "(null)"),
    got("SlurmdPort", [](const Src &s) { return std::to_string(s.conf.slurmd_port); }),
    text("SlurmdSpoolDir", &Config::slurmd_spool_dir, "(null)"),
    raw("SlurmdSyslogDebug", "(null)"),
    num("SlurmdTimeout", &Config::slurmd_timeout, " sec"),
    fixed("SlurmdUser", "root(0)"),
    fixed("SlurmSchedLogFile", "(null)"),
    fixed("SlurmSchedLogLevel", "0"),
    raw("SlurmctldPidFile", "(null)"),
    text("SLURM_CONF", &Config::path, "(null)"),
    got("SLURM_VERSION", [](const Src &) { return std::string(kSlurmRelease); }),
    got("DroverVersion", [](const Src &) { return std::string(kDroverVersion); }),
    fixed("SrunEpilog", "(null)"),
    fixed("SrunPortRange", "0-0"),
    fixed("SrunProlog", "(null)"),
    text("StateSaveLocation", &Config::state_save_location, "(null)"),
    got("StateSaveMaxSize",
        [](const Src &s) {
            return std::to_string(s.facts.store_map_mb) + "M (" +
                   std::to_string(s.facts.store_used_mb) + "M used)";
        }),
    power_text("SuspendExcNodes", &PowerSaveConf::exc_nodes),
    got("SuspendExcParts", exc_parts, "(null)"),
    got("SuspendExcStates", exc_states, "(null)"),
    power_text("SuspendProgram", &PowerSaveConf::suspend_program),
    power_num("SuspendRate", &PowerSaveConf::suspend_rate, " nodes/min"),
    got("SuspendTime", suspend_time),
    got("SuspendTimeout", suspend_timeout),
    fixed("SwitchParameters", "(null)"),
    text("SwitchType", &Config::switch_type, "(null)"),
    raw("TaskEpilog", "(null)"),
    text("TaskPlugin", &Config::task_plugin, "(null)"),
    text("TaskPluginParam", &Config::task_plugin_param, "(null type)"),
    raw("TaskProlog", "(null)"),
    fixed("TCPTimeout", "2 sec"),
    text("TmpFS", &Config::tmp_fs, "/tmp"),
    fixed("TopologyParam", "(null)"),
    fixed("TopologyPlugin", "topology/default"),
    fixed("TrackWCKey", "No"),
    num("TreeWidth", &Config::tree_width),
    fixed("UsePam", "No"),
    fixed("UnkillableStepProgram", "(null)"),
    num("UnkillableStepTimeout", &Config::unkillable_step_timeout, " sec"),
    fixed("VSizeFactor", "0 percent"),
    fixed("WaitTime", "0 sec"),
    fixed("X11Parameters", "(null)"),
    got("AccountingRecordsWaiting",
        [](const Src &s) { return std::to_string(s.facts.acct_waiting); }),
};

std::string row_value(const Row &r, const Src &s) {
    std::string v;
    if (r.text)
        v = s.conf.*r.text;
    else if (r.number)
        v = std::to_string(s.conf.*r.number) + r.unit;
    else if (r.get)
        v = r.get(s);
    else if (r.power_text)
        v = s.power().*r.power_text;
    else if (r.power_number)
        v = std::to_string(s.power().*r.power_number) + r.unit;
    else if (r.raw)
        if (std::string w = raw_key(s, ascii_lower(r.key).c_str()); !w.empty()) v = w + r.unit;
    return v.empty() && r.fallback ? r.fallback : v;
}

} // namespace

std::vector<ConfigLine> config_report(const Config &conf, const ConfigFacts &facts) {
    const Src src{conf, facts};
    Lines out;
    out.reserve(std::size(kRows) + conf.controllers.size());
    for (const Row &r : kRows) {
        if (r.emit)
            r.emit(src, out);
        else
            out.emplace_back(r.key, row_value(r, src));
    }
    return out;
}

bool is_slurm_key(std::string_view key) {
    auto same = [&](std::string_view k) { return detail::iequals(k, key); };
    if (same("DefMemPerCPU")) return true; // reported in DefMemPerNode's place
    return std::any_of(std::begin(kRows), std::end(kRows),
                       [&](const Row &r) { return same(r.key); });
}

} // namespace drover
