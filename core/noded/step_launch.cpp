// step_launch.cpp - a step's start on the node: its credential checked, this node's share of its
// tasks, their streams (files, pipes to srun, or a terminal), and its supervisor started
// (supervisor.hpp) and watched.
#include "noded/step_runner_impl.hpp"

#include "proto/fb_read.hpp"

#include <fcntl.h>
#include <pty.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <drover/plugin.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/bcast_path.hpp"
#include "common/cgroup_conf.hpp"
#include "common/config.hpp"
#include "common/multi_prog.hpp"
#include "net/step_cred.hpp"
#include "noded/resources.hpp"
#include "noded/step_env.hpp"
#include "noded/step_paths.hpp"
#include "noded/step_recovery.hpp"
#include "noded/supervisor.hpp"

namespace drover::noded {

namespace {

using proto::str;

bool make_pipe(int fds[2]) {
    return ::pipe2(fds, O_CLOEXEC) == 0;
}

// This node's share of the step's tasks: the same request reaches every node of the step.
// DROVER_EINVAL when the request's layout gives it none, or does not add up.
Status tasks_here(const proto::StepLaunchRequest &req, LaunchPlan &plan) {
    const auto *ids = req.task_ids();
    const auto *counts = req.node_task_counts();
    uint32_t nodes = plan.cred->nodes()->size();
    if (!ids || !counts || counts->size() != nodes)
        return {DROVER_EINVAL,
                "malformed step launch: the task layout does not match the credential's " +
                    std::to_string(nodes) + " node(s)"};
    uint64_t total = 0;
    for (uint32_t i = 0; i < counts->size(); ++i) total += counts->Get(i);
    if (total != ids->size())
        return {DROVER_EINVAL, "malformed step launch: " + std::to_string(ids->size()) +
                                   " task id(s) for " + std::to_string(total) + " task(s)"};
    plan.tasks = ranks_by_node(req)[plan.node_index];
    if (plan.tasks.empty()) return {DROVER_EINVAL, "no tasks for this node"};
    return {};
}

// The memory, CPUs and GPUs the credential grants the step on this node (gpu_files: the node's
// by index, given only when ConstrainDevices hides the others).
StepLimits limits_here(const proto::StepCred &cred, uint32_t node_index,
                       const std::vector<std::string> &gpu_files) {
    StepLimits limits;
    if (!gpu_files.empty())
        limits.deny_devices =
            denied_gpu_files(gpu_files, cred.gres() && node_index < cred.gres()->size()
                                            ? cred.gres()->Get(node_index)->str()
                                            : std::string());
    if (cred.mem_per_node_mb() && node_index < cred.mem_per_node_mb()->size())
        limits.mem_mb = cred.mem_per_node_mb()->Get(node_index);
    if (cred.cpu_ids() && node_index < cred.cpu_ids()->size())
        limits.cpus = cred.cpu_ids()->Get(node_index)->str();
    return limits;
}

// --pty: task 0 runs on a terminal whose other end we hold (its input and output).
bool wire_pty(asio::io_context &io, StepRunner::Step &s, ShepherdSpec &spec, ShepherdTask &st,
              std::vector<int> &close_after) {
    int master = -1, slave = -1;
    if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return false;
    ::fcntl(master, F_SETFD, FD_CLOEXEC);
    ::fcntl(slave, F_SETFD, FD_CLOEXEC);
    st.in_fd = st.out_fd = st.err_fd = slave;
    spec.pty_fd = slave;
    close_after.push_back(slave);
    s.stdin_pipes[st.task_id] =
        std::make_unique<asio::posix::stream_descriptor>(io, ::fcntl(master, F_DUPFD_CLOEXEC, 3));
    auto o = std::make_unique<StepRunner::Step::Output>();
    o->fd = std::make_unique<asio::posix::stream_descriptor>(io, master);
    o->task = st.task_id;
    s.outputs.push_back(std::move(o));
    return true;
}

// Pipes to us for the task's streams that no file takes: stdin when srun sends it to this task,
// stdout and stderr when no file was named.
bool wire_pipes(asio::io_context &io, StepRunner::Step &s, ShepherdTask &st, bool takes_stdin,
                std::vector<int> &close_after) {
    for (int which = 0; which < 3; ++which) {
        bool needed = which == 0   ? takes_stdin
                      : which == 1 ? st.out_path.empty()
                                   : st.err_path.empty();
        if (!needed) continue;
        int fds[2];
        if (!make_pipe(fds)) return false;
        if (which == 0) {
            st.in_fd = fds[0];
            close_after.push_back(fds[0]);
            s.stdin_pipes[st.task_id] =
                std::make_unique<asio::posix::stream_descriptor>(io, fds[1]);
            continue;
        }
        (which == 1 ? st.out_fd : st.err_fd) = fds[1];
        close_after.push_back(fds[1]);
        auto o = std::make_unique<StepRunner::Step::Output>();
        o->fd = std::make_unique<asio::posix::stream_descriptor>(io, fds[0]);
        o->task = st.task_id;
        o->type = which == 1 ? stepio::Stdout : stepio::Stderr;
        s.outputs.push_back(std::move(o));
    }
    return true;
}

// Where each task's streams go: files the user named, or pipes to us (and on to srun). Our copies
// of the tasks' ends are in close_after (closed once the supervisor has them). DROVER_EINVAL for
// a --multi-prog file that does not parse, DROVER_EIO when pipes cannot be made.
Status wire_tasks(asio::io_context &io, StepRunner::Step &s, const proto::StepLaunchRequest &req,
                  const LaunchPlan &plan, const std::string &node, ShepherdSpec &spec,
                  std::vector<int> &close_after) {
    std::string out_pat = str(req.std_out()), err_pat = str(req.std_err()),
                in_pat = str(req.std_in());
    PathContext pc{s.job_id, s.step_id, node, plan.node_index, s.user, str(plan.cred->job_name())};
    std::vector<std::vector<std::string>> programs; // --multi-prog: argv per task
    if (req.multi_prog() && req.multi_prog()->size()) {
        try {
            programs = parse_multi_prog(req.multi_prog()->str(), req.num_tasks());
        } catch (const std::exception &e) {
            return {DROVER_EINVAL, e.what()};
        }
    }
    auto wants_stdin = stdin_target(in_pat);
    uint32_t local = 0;
    for (uint32_t t : s.tasks) {
        ShepherdTask st;
        st.task_id = t;
        st.local_id = local++;
        if (t < programs.size()) st.argv = programs[t];
        if (!out_pat.empty()) st.out_path = expand_step_path(out_pat, pc, t, spec.work_dir);
        if (!err_pat.empty())
            st.err_path = expand_step_path(err_pat, pc, t, spec.work_dir);
        else if (!out_pat.empty())
            st.err_path = st.out_path;
        bool ok = true;
        if (req.pty() && t != 0) {
            // The other tasks' output goes nowhere, as in Slurm.
            st.out_path = st.err_path = st.in_path = "/dev/null";
        } else if (req.pty()) {
            ok = wire_pty(io, s, spec, st, close_after);
        } else {
            if (wants_stdin.file) st.in_path = expand_step_path(in_pat, pc, t, spec.work_dir);
            ok = wire_pipes(io, s, st, !wants_stdin.file && wants_stdin.takes(t), close_after);
        }
        if (!ok) return {DROVER_EIO, std::string("cannot create pipes: ") + std::strerror(errno)};
        spec.tasks.push_back(std::move(st));
    }
    return {};
}

} // namespace

// Checks the request's credential and finds this node's share of the step.
Status StepRunner::Impl::plan_launch(const proto::StepLaunchRequest &req, uint32_t requester,
                                     LaunchPlan &plan) {
    auto &I = *this;
    if (!req.cred()) return {DROVER_EPERM, "no job credential"};
    // One per process (all on the loop's thread): the nodes an emulating process hosts share it.
    static net::CheckedCreds checked;
    if (Status s = net::check_step_cred(I.auth, {req.cred()->data(), req.cred()->size()},
                                        I.is_admin, requester, I.node, int64_t(::time(nullptr)),
                                        &plan.cred_copy, &checked);
        !s.ok())
        return s;
    plan.cred = plan.cred_copy.get();
    auto key = std::make_pair(plan.cred->job_id(), plan.cred->step_id());
    if (I.launched.count(key))
        return {DROVER_EPERM, "job credential replayed: step already launched here"};
    if (auto e = I.ended_jobs.find(key.first); e != I.ended_jobs.end()) {
        // A credential issued after the job ended here is its next run's: a requeued job keeps
        // its id. One issued before belongs to the run that ended.
        if (plan.cred->expires() - I.conf.cred_lifetime() < e->second)
            return {DROVER_EPERM, "job " + std::to_string(key.first) + " has already ended"};
        I.ended_jobs.erase(e);
    }
    if (!req.argv() || req.argv()->size() == 0) return {DROVER_EINVAL, "no command to run"};
    for (uint32_t i = 0; i < plan.cred->nodes()->size(); ++i)
        if (plan.cred->nodes()->Get(i)->str() == I.node) plan.node_index = i;
    return tasks_here(req, plan);
}

// The supervisor's orders for a step: who, what, where, with which environment.
ShepherdSpec StepRunner::Impl::step_spec(const Step &s, const proto::StepLaunchRequest &req,
                                         const LaunchPlan &plan) {
    auto &I = *this;
    ShepherdSpec spec;
    spec.job_id = s.job_id;
    spec.step_id = s.step_id;
    spec.user = {s.uid, s.gid, s.user, I.groups.groups_of(s.user, s.gid, int64_t(::time(nullptr)))};
    spec.work_dir = str(req.work_dir());
    for (const auto *a : *req.argv()) spec.argv.push_back(a->str());
    // srun --bcast: the copy it sent here runs, not the program it names.
    if (!str(req.bcast()).empty())
        spec.argv[0] = bcast_path(str(req.bcast()), s.job_id, s.step_id, I.node);
    spec.open_append = req.open_append();
    spec.job_node_list = str(plan.cred->job_node_list());
    spec.node = I.node;
    if (!I.conf.prolog.empty() && !I.jobs_here.count(s.job_id)) spec.prolog = I.conf.prolog;
    spec.env = step_environment(*plan.cred, req, plan.node_index, I.node, s.tasks);
    spec.task_scripts = task_scripts(I.conf, spec.env);
    return spec;
}

Status StepRunner::launch(const proto::StepLaunchRequest &req, uint32_t requester,
                          std::vector<int32_t> *pids) {
    auto &I = *impl_;
    LaunchPlan plan;
    if (Status why = I.plan_launch(req, requester, plan); !why.ok()) return why;
    auto s = std::make_shared<Step>();
    s->job_id = plan.cred->job_id();
    s->step_id = plan.cred->step_id();
    s->uid = plan.cred->uid();
    s->gid = plan.cred->gid();
    s->user = str(plan.cred->user_name());
    s->label = std::to_string(s->job_id) + "." + std::to_string(s->step_id);
    s->tasks = plan.tasks;
    s->num_tasks = req.num_tasks();
    ShepherdSpec spec = I.step_spec(*s, req, plan);
    std::vector<int> close_after; // our copies of the tasks' ends
    int status_fds[2] = {-1, -1};
    auto close_all = [&] {
        for (int fd : close_after) ::close(fd);
        for (int fd : {status_fds[1], spec.record_fd})
            if (fd >= 0) ::close(fd);
    };
    Status why = wire_tasks(I.io, *s, req, plan, I.node, spec, close_after);
    if (why.ok()) // the CPUs first: --gpu-bind=closest follows them
        why = bind_task_cpus(I.conf, I.topology, *plan.cred, req, plan.node_index, spec);
    if (why.ok())
        why = bind_task_gpus(*plan.cred, req, plan.node_index, devices_constrained(I.conf),
                             I.topology, I.gpu_cores, spec.tasks);
    if (why.ok()) why = I.wire_pmi(s, req, spec, close_after);
    if (why.ok()) why = I.wire_pmix(s, req, plan, spec);
    if (why.ok() && !make_pipe(status_fds))
        why = {DROVER_EIO, std::string("cannot create pipes: ") + std::strerror(errno)};
    if (!why.ok()) {
        close_all();
        I.end_mpi(s);
        return why;
    }
    spec.status_fd = status_fds[1];
    // The step's place in the spool, and the records file its shepherd appends to.
    s->spool = step_spool_dir(I.conf, I.node, s->job_id, s->step_id);
    spec.record_fd = create_step_spool(s->spool);
    if (spec.record_fd < 0)
        why = {DROVER_EIO, "cannot create " + s->spool + "/records: " + std::strerror(errno)};
    for (const auto &o : s->outputs) spec.drain_fds.push_back(o->fd->native_handle());
    // Recorded before the shepherd may run: a droverd killed from here on finds it again.
    auto keep = [&](const Supervised &sup) -> Status {
        if (save_spooled_step(s->spool, {s->job_id, s->step_id, s->uid, s->gid, s->user, s->tasks,
                                         sup.cont, identify(sup.pid)}))
            return {};
        return {DROVER_EIO, "cannot write " + s->spool + "/step: " + std::strerror(errno)};
    };
    Supervised sup;
    if (why.ok())
        why = start_supervisor(spec, I.containers,
                               limits_here(*plan.cred, plan.node_index, I.gpu_files), s->label,
                               I.reaper, keep, &sup);
    close_all();
    if (!why.ok()) {
        I.end_mpi(s);
        ::close(status_fds[0]);
        std::error_code ec;
        std::filesystem::remove_all(s->spool, ec);
        return why;
    }
    s->cont = sup.cont;
    s->contained = true;
    s->shepherd = sup.pid;
    I.launched.insert({s->job_id, s->step_id});
    I.jobs_here.insert(s->job_id);
    I.steps[{s->job_id, s->step_id}] = s;
    I.watch(s, status_fds[0]);
    I.serve_mpi(s);
    s->srun = std::make_shared<IoLink>();
    I.connect_link(s, s->srun, str(req.io_host()), req.io_port(),
                   req.io_key() ? std::string(req.io_key()->begin(), req.io_key()->end()) : "");
    I.arm_sampling(s);
    pids->push_back(sup.pid); // the tasks' pids come later, from the shepherd
    spdlog::info("step {} launched: {} task(s) for {}", s->label, s->tasks.size(), s->user);
    return {};
}

void StepRunner::Impl::watch(const StepPtr &s, int status_fd) {
    s->status = std::make_unique<asio::posix::stream_descriptor>(io, status_fd);
    std::weak_ptr<Impl> weak = shared_from_this();
    reaper.watch(s->shepherd, [weak, s](int, const struct rusage &) {
        auto self = weak.lock();
        if (!self) return;
        s->shepherd_done = true;
        self->maybe_finish(s);
    });
    read_status(s);
    s->open_outputs = int(s->outputs.size());
    for (auto &o : s->outputs) read_output(s, o.get());
}

} // namespace drover::noded
