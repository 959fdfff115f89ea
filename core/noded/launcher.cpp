// launcher.cpp - the batch step: its script file, environment and output files, started through
// the step supervisor (supervisor.hpp) as a step of one task; its end reported; recovery after a
// restart.
//
// The supervisor is the script's keeper (shepherd.hpp): it writes the script's end to the spool
// even when droverd is not there to reap it.
#include "noded/launcher.hpp"

#include "plugin/switch_calls.hpp"

#include "proto/fb_read.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <csignal>
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drover/plugin.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/config.hpp"
#include "noded/batch_banner.hpp"
#include "noded/prolog.hpp"
#include "noded/resources.hpp"
#include "noded/spool.hpp"
#include "noded/step_limits.hpp"
#include "noded/supervisor.hpp"

namespace asio = boost::asio;
namespace fs = std::filesystem;

namespace drover::noded {

namespace {

using proto::str;

// Slurm's line for a stream that could not be opened.
std::string open_failure(const RunningJob &job, const ShepherdRecord &r) {
    const char *names[] = {"stdin", "stdout", "stderr"};
    const std::string *paths[] = {&job.in_path, &job.out_path, &job.err_path};
    uint32_t k = r.detail >= 0 && r.detail < 3 ? uint32_t(r.detail) : 1;
    return std::string("Could not open ") + names[k] + " file " + *paths[k] + ": " +
           std::strerror(r.value);
}

} // namespace

struct Launcher::Impl {
    Impl(asio::io_context &io_, const Config &c, std::string node, plugin::PluginSet &p, Reaper &r,
         Ended e, Tell t)
        : io(io_), conf(c), node_name(std::move(node)), plugins(p), containers(p.proctrack()),
          reaper(r), ended(std::move(e)), tell(std::move(t)) {}

    asio::io_context &io;
    const Config &conf;
    std::string node_name;
    plugin::PluginSet &plugins;
    Containers containers;
    GroupCache groups;
    Reaper &reaper;
    Ended ended;
    Tell tell;
    std::map<uint32_t, RunningJob> jobs;
    std::vector<std::string> gpu_files; // this node's by GPU index (ConstrainDevices only)
    std::map<uint32_t, std::unique_ptr<asio::steady_timer>> kill_timers;
    std::map<uint32_t, uint32_t> reporting; // ended, report not yet acknowledged: job -> run
    // Runs that ended here lately (job -> run, when): a launch of one of them that arrives late
    // (the controller repeats launches after its own restart) must not start it again.
    std::map<uint32_t, std::pair<uint32_t, int64_t>> ended_runs;

    // One directory per run, so that the acknowledgement of one run's end, which removes its
    // directory, never touches the next run's.
    fs::path spool_of(uint32_t id, uint32_t run) const {
        return fs::path(node_spool(conf, node_name)) /
               ("job" + std::to_string(id) + "." + std::to_string(run));
    }
    // Whether this run of the job is (or lately was) here.
    bool seen(uint32_t id, uint32_t run) {
        if (jobs.count(id)) return true;
        if (auto r = reporting.find(id); r != reporting.end() && r->second == run) return true;
        int64_t now = int64_t(::time(nullptr));
        for (auto it = ended_runs.begin(); it != ended_runs.end();)
            it = now - it->second.second > 3600 ? ended_runs.erase(it) : std::next(it);
        auto e = ended_runs.find(id);
        return e != ended_runs.end() && e->second.first == run;
    }
    // Runs the Epilog for a run whose end is kept in dir, and marks it done there. A droverd
    // killed between keeping the end and this mark runs it again after its restart: the Epilog
    // runs at least once for every job (a cleanup script must bear a second run), never zero.
    void epilog_once(const std::string &dir, uint32_t id, uint32_t uid, const std::string &user,
                     const std::string &nodes) {
        std::string mark = dir + "/epilog.done";
        if (conf.epilog.empty() || fs::exists(mark)) return;
        int st = run_script(conf.epilog, id, uid, user, nodes, node_name);
        if (st != 0) spdlog::warn("job {}: epilog exited with status {}", id, st);
        save_bytes(mark, {});
    }
    void send_report(uint32_t id, uint32_t run, std::vector<uint8_t> msg, bool already_kept) {
        reporting[id] = run;
        send_kept_report(
            tell, spool_of(id, run).string(), std::move(msg), "job " + std::to_string(id),
            [this, id, run] {
                if (auto r = reporting.find(id); r != reporting.end() && r->second == run)
                    reporting.erase(r);
            },
            already_kept);
    }
};

Launcher::Launcher(asio::io_context &io, const Config &conf, const std::string &node_name,
                   plugin::PluginSet &plugins, Reaper &reaper, Ended ended, Tell tell)
    : impl_(std::make_unique<Impl>(io, conf, node_name, plugins, reaper, std::move(ended),
                                   std::move(tell))) {}

Launcher::~Launcher() = default;

void Launcher::set_gpu_files(std::vector<std::string> files) {
    impl_->gpu_files = std::move(files);
}

bool Launcher::has(uint32_t job_id) const {
    return impl_->jobs.count(job_id) != 0;
}

std::vector<uint32_t> Launcher::running() const {
    std::vector<uint32_t> out;
    for (const auto &[id, j] : impl_->jobs) out.push_back(id);
    for (const auto &[id, run] : impl_->reporting)
        if (!impl_->jobs.count(id)) out.push_back(id);
    return out;
}

namespace {

// Writes the script to <spool>/slurm_script, readable by the job's user only (DROVER_EIO when
// it cannot be).
Status write_script(const fs::path &spool, const proto::BatchLaunchRequest &req) {
    std::error_code ec;
    fs::create_directories(spool, ec);
    if (ec)
        return {DROVER_EIO,
                "cannot create spool directory " + spool.string() + ": " + ec.message()};
    fs::path script = spool / "slurm_script";
    {
        std::ofstream f(script, std::ios::binary | std::ios::trunc);
        if (req.script()) f.write(req.script()->data(), req.script()->size());
        if (!f) return {DROVER_EIO, "cannot write " + script.string()};
    }
    ::chmod(spool.c_str(), 0755);
    ::chmod(script.c_str(), 0700);
    if (::geteuid() == 0 && (::chown(script.c_str(), req.uid(), req.gid()) != 0))
        return {DROVER_EIO,
                "cannot give " + script.string() + " to uid " + std::to_string(req.uid())};
    return {};
}

// The script's environment: the controller's list, the switch plugin's additions, our node name.
// DROVER_EIO when the switch plugin fails (the batch launch's failures are all the node's).
Status batch_environment(const proto::BatchLaunchRequest &req, const std::string &node,
                         const plugin::Bound<drover_switch_ops> &sw,
                         std::vector<std::string> *env) {
    if (req.environment())
        for (const auto *kv : *req.environment())
            env->push_back(str(kv->key()) + "=" + str(kv->value()));
    env->push_back("SLURMD_NODENAME=" + node);
    std::string nodes = str(req.node_list());
    Status s = plugin::SwitchCalls(sw).job_init(
        req.job_id(), nodes, [env](std::string_view k, std::string_view v) {
            env->push_back(std::string(k) + "=" + std::string(v));
        });
    if (!s.ok()) return {DROVER_EIO, "switch job_init: " + std::string(s.reason())};
    return {};
}

// The batch step as the supervisor runs it: one task, the script, with the job's files.
ShepherdSpec batch_spec(const proto::BatchLaunchRequest &req, const fs::path &script, RunAs user) {
    ShepherdSpec spec;
    spec.batch = true;
    spec.job_id = req.job_id();
    spec.step_id = DROVER_STEP_BATCH;
    spec.user = std::move(user);
    spec.work_dir = str(req.work_dir());
    spec.argv.push_back(script.string());
    if (req.argv())
        for (const auto *a : *req.argv()) spec.argv.push_back(a->str());
    spec.open_append = req.open_mode_append();
    spec.job_node_list = str(req.node_list());
    ShepherdTask t;
    t.in_path = str(req.std_in()).empty() ? "/dev/null" : str(req.std_in());
    t.out_path = str(req.std_out());
    t.err_path = str(req.std_err());
    spec.tasks.push_back(std::move(t));
    return spec;
}

// What the spool keeps of a batch job while it runs (job<ID>.<run>/batch).
Fields batch_fields(const RunningJob &job, const ProcessId &keeper) {
    Fields f{{"job", std::to_string(job.job_id)},
             {"run", std::to_string(job.restart)},
             {"cont", std::to_string(job.cont)},
             {"uid", std::to_string(job.uid)},
             {"gid", std::to_string(job.gid)},
             {"user", job.user_name},
             {"nodes", job.node_list},
             {"in", job.in_path},
             {"out", job.out_path},
             {"err", job.err_path}};
    put_process(f, keeper);
    return f;
}

} // namespace

Status Launcher::launch(const proto::BatchLaunchRequest &req) {
    auto &I = *impl_;
    uint32_t id = req.job_id(), run = req.restart_count();
    if (I.seen(id, run)) {
        spdlog::info("job {}: launch of run {} ignored: it is already here", id, run);
        return {};
    }
    // Spool: <SlurmdSpoolDir>/<node>/job<id>.<run>/
    fs::path spool = I.spool_of(id, run);
    if (Status why = write_script(spool, req); !why.ok()) return why;
    std::string user = str(req.user_name());
    ShepherdSpec spec = batch_spec(req, spool / "slurm_script",
                                   {req.uid(), req.gid(), user,
                                    I.groups.groups_of(user, req.gid(), int64_t(::time(nullptr)))});
    spec.node = I.node_name;
    spec.prolog = I.conf.prolog;
    if (Status why = batch_environment(req, I.node_name, I.plugins.switch_(), &spec.env); !why.ok())
        return why;
    spec.task_scripts = task_scripts(I.conf, {}); // slurm.conf's only: srun's are for steps

    // Where the keeper writes the script's end (root's; the keeper does not drop privileges).
    std::string records = (spool / "records").string();
    spec.record_fd = ::open(records.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    auto give_up = [&](Status why) {
        if (spec.record_fd >= 0) ::close(spec.record_fd);
        std::error_code ec;
        fs::remove_all(spool, ec);
        return why;
    };
    if (spec.record_fd < 0)
        return give_up({DROVER_EIO, "cannot create " + records + ": " + std::strerror(errno)});
    RunningJob job;
    job.job_id = id;
    job.restart = run;
    job.uid = req.uid();
    job.gid = req.gid();
    job.spool_dir = spool.string();
    job.user_name = user;
    job.node_list = spec.job_node_list;
    job.in_path = spec.tasks[0].in_path;
    job.out_path = spec.tasks[0].out_path;
    job.err_path = spec.tasks[0].err_path;
    // The batch step is a step like any other: contained, and limited to what the job holds here;
    // recorded before the script may run, so a droverd killed from here on finds it again.
    auto keep = [&](const Supervised &s) -> Status {
        job.pid = s.pid;
        job.cont = s.cont;
        if (save_fields((spool / "batch").string(), batch_fields(job, identify(s.pid)))) return {};
        return {DROVER_EIO,
                "cannot write " + (spool / "batch").string() + ": " + std::strerror(errno)};
    };
    Supervised started;
    StepLimits limits{req.mem_mb(), str(req.cpu_ids()),
                      denied_gpu_files(I.gpu_files, str(req.gres()))};
    if (Status why = start_supervisor(spec, I.containers, limits, std::to_string(id) + ".batch",
                                      I.reaper, keep, &started);
        !why.ok())
        return give_up(why);
    ::close(spec.record_fd);
    I.jobs[id] = std::move(job);
    I.reaper.watch(started.pid,
                   [this, id](int status, const struct rusage &) { script_ended(id, status); });
    spdlog::info("job {} launched as pid {} for {}", id, started.pid, user);
    return {};
}

void Launcher::recover() {
    auto &I = *impl_;
    for (const std::string &dir : spool_entries(node_spool(I.conf, I.node_name), "job")) {
        Fields f = load_fields(dir + "/batch");
        uint32_t id = uint32_t(field_u64(f, "job")), run = uint32_t(field_u64(f, "run"));
        std::error_code ec;
        if (f.empty() || !id) {
            // Never let go (droverd died during the launch): nothing of it ran.
            fs::remove_all(dir, ec);
            continue;
        }
        if (auto msg = kept_report(dir)) {
            spdlog::info("job {}: its end is reported again (from {})", id, dir);
            I.epilog_once(dir, id, uint32_t(field_u64(f, "uid")), f["user"], f["nodes"]);
            I.send_report(id, run, std::move(*msg), true);
            continue;
        }
        RunningJob job;
        job.job_id = id;
        job.restart = run;
        job.cont = field_u64(f, "cont");
        job.uid = uint32_t(field_u64(f, "uid"));
        job.gid = uint32_t(field_u64(f, "gid"));
        job.user_name = f["user"];
        job.node_list = f["nodes"];
        job.in_path = f["in"];
        job.out_path = f["out"];
        job.err_path = f["err"];
        job.spool_dir = dir;
        ProcessId keeper = get_process(f);
        job.pid = keeper.pid;
        I.jobs[id] = std::move(job);
        auto gone = [this, id](int status, const struct rusage &) { script_ended(id, status); };
        if (still_running(keeper)) {
            spdlog::info("job {}: its batch script still runs (keeper pid {}); watching it again",
                         id, keeper.pid);
            I.reaper.watch_adopted(keeper.pid, gone);
        } else {
            // (A live pid that is not the keeper's start is another process by now.)
            spdlog::info("job {}: its batch script ended while droverd was away", id);
            asio::post(I.io, [gone] { gone(-1, rusage{}); });
        }
    }
}

bool Launcher::signal(uint32_t job_id, int sig, bool terminate, proto::KillCause cause) {
    auto &I = *impl_;
    auto it = I.jobs.find(job_id);
    if (it == I.jobs.end()) return false;
    RunningJob &job = it->second;
    if (!terminate) {
        I.containers.signal(job.cont, sig);
        return true;
    }
    if (job.terminating) return true;
    job.terminating = true;
    int64_t now = int64_t(::time(nullptr));
    if (std::string line = termination_line(job_id, I.node_name, cause, now); !line.empty()) {
        RunAs who{job.uid, job.gid, job.user_name, I.groups.groups_of(job.user_name, job.gid, now)};
        pid_t pid = append_as(who, job.err_path.empty() ? job.out_path : job.err_path, line);
        if (pid > 0) I.reaper.watch(pid, [](int, const struct rusage &) {});
    }
    auto over = [this, job_id] { return !impl_->jobs.count(job_id); };
    auto timer =
        terminate_container(I.io, I.containers, job.cont, I.conf.kill_wait, over, [job_id] {
            spdlog::info("job {}: KillWait over, sending SIGKILL", job_id);
        });
    I.kill_timers[job_id] = std::move(timer);
    return true;
}

namespace {

// The pid of the job's script while it runs, else 0. It is the shepherd's Started record; once
// it has an Exited one, the pid may be another process's. And it must still be the keeper's
// child: a pid the keeper has reaped may already be another process's.
int32_t script_pid(const RunningJob &job) {
    int32_t pid = 0;
    for (const ShepherdRecord &r : read_records(job.spool_dir + "/records")) {
        if (r.kind == ShepherdRecord::Started) pid = r.value;
        if (r.kind == ShepherdRecord::Exited || r.kind == ShepherdRecord::Failed) pid = 0;
    }
    return pid > 0 && proc_stat_field(pid, 4) == uint64_t(job.pid) ? pid : 0;
}

} // namespace

std::vector<Launcher::BatchPids> Launcher::batch_pids(uint32_t job_id, uint32_t requester,
                                                      bool admin) const {
    const auto &I = *impl_;
    std::vector<BatchPids> out;
    for (const auto &[id, job] : I.jobs) {
        if ((job_id != DROVER_NO_VAL && id != job_id) || (job.uid != requester && !admin)) continue;
        out.push_back({id, script_pid(job), I.containers.pids(job.cont)});
    }
    return out;
}

Status Launcher::signal_shell(uint32_t job_id, int sig, uint32_t requester, bool admin) {
    auto &I = *impl_;
    auto it = I.jobs.find(job_id);
    if (it == I.jobs.end())
        return {DROVER_ENOENT, "no batch script of job " + std::to_string(job_id) + " here"};
    const RunningJob &job = it->second;
    if (job.uid != requester && !admin) return {DROVER_EPERM, "Access/permission denied"};
    int32_t pid = script_pid(job);
    if (pid == 0)
        return {DROVER_ENOENT, "job " + std::to_string(job_id) + "'s script is not running"};
    if (::kill(pid, sig) != 0) return {DROVER_EIO, std::string("kill: ") + std::strerror(errno)};
    return {};
}

// How the script ended, as its keeper wrote it (a stream it could not open, a Prolog that failed),
// and what its container saw.
BatchEnd Launcher::end_of(const RunningJob &job, int keeper_status) {
    BatchEnd end;
    // No record: the keeper died first (killed with the whole container), and the script with
    // it; keeper_status is -1 when we did not see it die (it is not our child).
    end.status = keeper_status >= 0 && WIFSIGNALED(keeper_status) ? keeper_status : SIGKILL;
    for (const ShepherdRecord &r : read_records(job.spool_dir + "/records")) {
        if (r.kind == ShepherdRecord::Exited) {
            end.status = r.value;
            end.ru = rusage_of(r);
        } else if (r.kind == ShepherdRecord::Failed) {
            end.status = r.value; // never ran: its Prolog failed
        } else if (r.kind == ShepherdRecord::NoStream) {
            end.failure = open_failure(job, r);
            spdlog::error("job {}: {}", job.job_id, end.failure);
        }
    }
    end.cont.struct_size = sizeof end.cont;
    if (auto cu = impl_->containers.usage(job.cont)) end.cont = *cu;
    uint32_t ooms = DROVER_HAS(drover_cont_usage, &end.cont, oom_kills) ? end.cont.oom_kills : 0;
    if (ooms > 0 && end.failure.empty()) {
        // As slurmstepd does: the job ends OUT_OF_MEMORY, and says so in its error file.
        std::string label = std::to_string(job.job_id) + ".batch";
        spdlog::info("step {}: {} oom_kill event(s); the job ends OUT_OF_MEMORY", label, ooms);
        end.state = DROVER_JOB_OOM;
        Status why =
            append_as_user(job.err_path, job.uid, job.gid, job.user_name, oom_message(ooms, label));
        if (!why.ok())
            spdlog::warn("step {}: cannot write to {}: {}", label, job.err_path, why.text());
    }
    return end;
}

void Launcher::script_ended(uint32_t id, int keeper_status) {
    auto &I = *impl_;
    auto jt = I.jobs.find(id);
    if (jt == I.jobs.end()) return;
    RunningJob job = std::move(jt->second);
    I.jobs.erase(jt);
    I.kill_timers.erase(id);
    BatchEnd end = end_of(job, keeper_status);
    // The batch script is over: whatever it left behind goes with it.
    I.containers.destroy(job.cont);
    if (Status s = I.plugins.switch_calls().job_fini(id); !s.ok())
        spdlog::warn("job {}: {}", id, s.text());
    spdlog::info("job {} ended with status {}", id, end.status);
    // The report is kept before the Epilog runs, so a droverd killed meanwhile reports the end
    // after its restart (and runs the Epilog then) rather than ending the job a second time.
    std::vector<uint8_t> msg = I.ended(job, end);
    save_bytes(job.spool_dir + "/end.msg", msg);
    I.ended_runs[id] = {job.restart, int64_t(::time(nullptr))};
    I.epilog_once(job.spool_dir, id, job.uid, job.user_name, job.node_list);
    I.send_report(id, job.restart, std::move(msg), true);
}

} // namespace drover::noded
