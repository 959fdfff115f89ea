// launcher.cpp - fork, track, drop privileges, exec; reap and kill; recover after a restart.
//
// The child is forked blocked on a pipe so the proctrack plugin has it in its container before
// it can fork anything; once let go it forks the script, which drops to the user and execs, and
// stays as the script's keeper (shepherd.hpp) so the script's end is written to the spool even
// when droverd is not there to reap it.
#include "noded/launcher.hpp"

#include "proto/fb_read.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "common/config.hpp"
#include "noded/fork_child.hpp"
#include "noded/prolog.hpp"
#include "noded/shepherd.hpp"
#include "noded/step_limits.hpp"

namespace asio = boost::asio;
namespace fs = std::filesystem;

namespace drover::noded {

namespace {

using proto::str;

// In the child: report a failure on the job's stderr if it is open, else ours, and exit.
[[noreturn]] void child_fail(const std::string &msg, int code) {
    std::string line = "droverd: error: " + msg + "\n";
    (void)!::write(2, line.data(), line.size());
    ::_exit(code);
}

int open_output(const std::string &path, bool append) {
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
    return ::open(path.c_str(), flags, 0644);
}

// In the script's child: a standard stream it cannot open (0 stdin, 1 stdout, 2 stderr) is
// recorded as a Failed record carrying errno, for droverd to log and report, and the script
// never runs.
[[noreturn]] void stream_fail(int record_fd, uint32_t stream) {
    ShepherdRecord r;
    r.kind = ShepherdRecord::Failed;
    r.task = stream;
    r.value = errno;
    (void)!::write(record_fd, &r, sizeof r);
    ::_exit(1);
}

// Slurm's line for a stream that could not be opened.
std::string open_failure(const RunningJob &job, const ShepherdRecord &r) {
    const char *names[] = {"stdin", "stdout", "stderr"};
    const std::string *paths[] = {&job.in_path, &job.out_path, &job.err_path};
    uint32_t k = r.task < 3 ? r.task : 1;
    return std::string("Could not open ") + names[k] + " file " + *paths[k] + ": " +
           std::strerror(r.value);
}

} // namespace

struct Launcher::Impl {
    Impl(asio::io_context &io_, const Config &c, std::string node, plugin::PluginSet &p, Reaper &r,
         Ended e, Tell t)
        : io(io_), conf(c), node_name(std::move(node)), plugins(p), reaper(r), ended(std::move(e)),
          tell(std::move(t)) {}

    asio::io_context &io;
    const Config &conf;
    std::string node_name;
    plugin::PluginSet &plugins;
    Reaper &reaper;
    Ended ended;
    Tell tell;
    std::map<uint32_t, RunningJob> jobs;
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

std::string Launcher::launch(const proto::BatchLaunchRequest &req) {
    auto &I = *impl_;
    uint32_t id = req.job_id();
    if (I.seen(id, req.restart_count())) {
        spdlog::info("job {}: launch of run {} ignored: it is already here", id,
                     req.restart_count());
        return {};
    }
    uint32_t uid = req.uid(), gid = req.gid();
    std::string user = str(req.user_name());
    std::string node_list = str(req.node_list());

    // Spool: <SlurmdSpoolDir>/<node>/job<id>.<run>/slurm_script, readable by the job's user only.
    uint32_t run = req.restart_count();
    fs::path spool = I.spool_of(id, run);
    std::error_code ec;
    fs::create_directories(spool, ec);
    if (ec) return "cannot create spool directory " + spool.string() + ": " + ec.message();
    fs::path script = spool / "slurm_script";
    {
        std::ofstream f(script, std::ios::binary | std::ios::trunc);
        if (req.script()) f.write(req.script()->data(), req.script()->size());
        if (!f) return "cannot write " + script.string();
    }
    ::chmod(spool.c_str(), 0755);
    ::chmod(script.c_str(), 0700);
    if (::geteuid() == 0 && (::chown(script.c_str(), uid, gid) != 0))
        return "cannot give " + script.string() + " to uid " + std::to_string(uid);

    // The environment: the controller's list, the switch plugin's additions, our node name.
    std::vector<std::string> env;
    if (req.environment())
        for (const auto *kv : *req.environment())
            env.push_back(str(kv->key()) + "=" + str(kv->value()));
    env.push_back("SLURMD_NODENAME=" + I.node_name);
    const auto &sw = I.plugins.switch_();
    if (sw && sw.ops.job_init) {
        drover_error err{};
        auto add = [](void *arg, drover_str k, drover_str v) {
            static_cast<std::vector<std::string> *>(arg)->push_back(
                std::string(k.ptr, k.len) + "=" + std::string(v.ptr, v.len));
        };
        if (sw.ops.job_init(sw.state, id, {node_list.data(), node_list.size()}, add, &env, &err) !=
            DROVER_OK)
            return std::string("switch job_init: ") + err.text;
    }
    std::vector<std::string> args{script.string()};
    if (req.argv())
        for (const auto *a : *req.argv()) args.push_back(a->str());
    std::string work = str(req.work_dir()), out = str(req.std_out()), err = str(req.std_err()),
                in = str(req.std_in());
    bool append = req.open_mode_append();
    std::string prolog = I.conf.prolog;
    std::string node = I.node_name;

    // Where the keeper writes the script's end (root's; the keeper has not dropped privileges).
    std::string records = (spool / "records").string();
    int record_fd = ::open(records.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    auto give_up = [&](std::string why) {
        if (record_fd >= 0) ::close(record_fd);
        fs::remove_all(spool, ec);
        return why;
    };
    if (record_fd < 0) return give_up("cannot create " + records + ": " + std::strerror(errno));

    HeldChild child = fork_held();
    pid_t pid = child.pid;
    if (pid < 0) return give_up("fork failed");
    if (pid == 0) {
        // This process outlives droverd: nothing of droverd's (its listening sockets above all)
        // may stay open in it.
        if (record_fd > 3) ::close_range(3, unsigned(record_fd - 1), 0);
        ::close_range(unsigned(std::max(record_fd, 2) + 1), ~0u, 0);
        pid_t script = fork_child();
        if (script != 0) keep_batch_script(script, record_fd); // a failed fork records nothing
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (!prolog.empty()) {
            int st = run_script(prolog, id, uid, user, node_list, node);
            if (st != 0)
                child_fail("prolog " + prolog + " failed with status " + std::to_string(st), 1);
        }
        if (::getuid() == 0) {
            if (::setgid(gid) != 0) child_fail("setgid failed", 1);
            if (::initgroups(user.c_str(), gid) != 0) ::setgroups(0, nullptr);
            if (::setuid(uid) != 0) child_fail("setuid failed", 1);
        }
        if (::chdir(work.c_str()) != 0) {
            // As Slurm does: say so in the job's output and run from /tmp.
            (void)!::chdir("/tmp");
        }
        int fin = ::open(in.empty() ? "/dev/null" : in.c_str(), O_RDONLY);
        if (fin < 0) stream_fail(record_fd, 0);
        int fout = open_output(out, append);
        if (fout < 0) stream_fail(record_fd, 1);
        int ferr = err == out ? fout : open_output(err, append);
        if (ferr < 0) stream_fail(record_fd, 2);
        ::dup2(fin, 0);
        ::dup2(fout, 1);
        ::dup2(ferr, 2);
        ::close_range(3, ~0u, 0);
        std::vector<char *> argv, envp;
        for (auto &a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        for (auto &e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        ::execve(argv[0], argv.data(), envp.data());
        child_fail("cannot execute " + args[0] + ": " + std::strerror(errno), 127);
    }
    ::close(record_fd);
    record_fd = -1;
    RunningJob job;
    job.job_id = id;
    job.restart = run;
    job.pid = pid;
    job.uid = uid;
    job.gid = gid;
    job.spool_dir = spool.string();
    job.user_name = user;
    job.node_list = node_list;
    job.in_path = in.empty() ? "/dev/null" : in;
    job.out_path = out;
    job.err_path = err;
    // The batch step is a step like any other: contained, and limited to what the job holds here.
    StepLimits limits{req.mem_mb(), str(req.cpu_ids())};
    if (std::string why = contain_step(I.plugins.proctrack(), id, DROVER_STEP_BATCH, pid, limits,
                                       std::to_string(id) + ".batch", &job.cont);
        !why.empty()) {
        release(child, false);
        I.reaper.watch(pid, [](int, const struct rusage &) {});
        return give_up(why);
    }
    // Recorded before the script may run: a droverd killed from here on finds it again.
    Fields f{{"job", std::to_string(id)},
             {"run", std::to_string(run)},
             {"cont", std::to_string(job.cont)},
             {"uid", std::to_string(uid)},
             {"gid", std::to_string(gid)},
             {"user", user},
             {"nodes", node_list},
             {"in", job.in_path},
             {"out", out},
             {"err", err}};
    put_process(f, identify(pid));
    if (!save_fields((spool / "batch").string(), f)) {
        release(child, false);
        I.reaper.watch(pid, [](int, const struct rusage &) {});
        return give_up("cannot write " + (spool / "batch").string() + ": " + std::strerror(errno));
    }
    release(child, true);
    I.jobs[id] = std::move(job);
    I.reaper.watch(pid,
                   [this, id](int status, const struct rusage &) { script_ended(id, status); });
    spdlog::info("job {} launched as pid {} for {}", id, pid, user);
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

bool Launcher::signal(uint32_t job_id, int sig, bool terminate) {
    auto &I = *impl_;
    auto it = I.jobs.find(job_id);
    if (it == I.jobs.end()) return false;
    RunningJob &job = it->second;
    const auto &pt = I.plugins.proctrack();
    drover_error err{};
    if (!terminate) {
        pt.ops.cont_signal(pt.state, job.cont, sig, &err);
        return true;
    }
    if (job.terminating) return true;
    job.terminating = true;
    pt.ops.cont_signal(pt.state, job.cont, SIGCONT, &err);
    pt.ops.cont_signal(pt.state, job.cont, SIGTERM, &err);
    auto timer = std::make_unique<asio::steady_timer>(I.io, std::chrono::seconds(I.conf.kill_wait));
    timer->async_wait([this, job_id](boost::system::error_code ec) {
        if (ec) return;
        auto jt = impl_->jobs.find(job_id);
        if (jt == impl_->jobs.end()) return;
        const auto &p = impl_->plugins.proctrack();
        drover_error e{};
        spdlog::info("job {}: KillWait over, sending SIGKILL", job_id);
        p.ops.cont_signal(p.state, jt->second.cont, SIGKILL, &e);
    });
    I.kill_timers[job_id] = std::move(timer);
    return true;
}

// How the script ended, as its keeper (or the script's child, when it could not start) wrote it,
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
            end.failure = open_failure(job, r);
            spdlog::error("job {}: {}", job.job_id, end.failure);
        }
    }
    const auto &pt = impl_->plugins.proctrack();
    drover_error err{};
    end.cont.struct_size = sizeof end.cont;
    if (pt.ops.cont_usage) pt.ops.cont_usage(pt.state, job.cont, &end.cont, &err);
    uint32_t ooms = DROVER_HAS(drover_cont_usage, &end.cont, oom_kills) ? end.cont.oom_kills : 0;
    if (ooms > 0 && end.failure.empty()) {
        // As slurmstepd does: the job ends OUT_OF_MEMORY, and says so in its error file.
        std::string label = std::to_string(job.job_id) + ".batch";
        spdlog::info("step {}: {} oom_kill event(s); the job ends OUT_OF_MEMORY", label, ooms);
        end.state = DROVER_JOB_OOM;
        std::string why =
            append_as_user(job.err_path, job.uid, job.gid, job.user_name, oom_message(ooms, label));
        if (!why.empty()) spdlog::warn("step {}: cannot write to {}: {}", label, job.err_path, why);
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
    const auto &pt = I.plugins.proctrack();
    drover_error err{};
    pt.ops.cont_signal(pt.state, job.cont, SIGKILL, &err);
    if (pt.ops.cont_destroy) pt.ops.cont_destroy(pt.state, job.cont, &err);
    const auto &sw = I.plugins.switch_();
    if (sw && sw.ops.job_fini) sw.ops.job_fini(sw.state, id, &err);
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
