// step_runner.cpp - step launch, I/O forwarding, signals and ends on the node.
#include "noded/step_runner.hpp"

#include "proto/fb_read.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <pty.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <deque>
#include <filesystem>
#include <map>
#include <set>

#include "common/config.hpp"
#include "common/multi_prog.hpp"
#include "common/step_io.hpp"
#include "common/timefmt.hpp"
#include "net/step_cred.hpp"
#include "noded/fork_child.hpp"
#include "noded/prolog.hpp"
#include "noded/sampler.hpp"
#include "noded/shepherd.hpp"
#include "noded/step_env.hpp"
#include "noded/step_limits.hpp"
#include "noded/step_paths.hpp"
#include "noded/step_recovery.hpp"

namespace asio = boost::asio;
using asio::ip::tcp;

namespace drover::noded {

namespace {

using proto::str;

bool make_pipe(int fds[2]) {
    return ::pipe2(fds, O_CLOEXEC) == 0;
}

// JobAcctGatherFrequency: "30" or "task=30[,energy=...]"; Slurm's default is 30 seconds.
int sample_period(const std::string &spec) {
    std::string v = spec;
    if (auto at = v.find("task="); at != std::string::npos)
        v = v.substr(at + 5);
    else if (v.find('=') != std::string::npos)
        return 30;
    try {
        return v.empty() ? 30 : std::stoi(v);
    } catch (const std::exception &) {
        return 30;
    }
}

// The wait status that stands for the step: the highest exit code, a signal counting as 128+sig.
int worse(int a, int b) {
    auto rank = [](int s) { return WIFSIGNALED(s) ? 128 + WTERMSIG(s) : WEXITSTATUS(s); };
    return rank(b) > rank(a) ? b : a;
}

} // namespace

struct StepRunner::Step : std::enable_shared_from_this<StepRunner::Step> {
    struct Output {
        std::unique_ptr<asio::posix::stream_descriptor> fd;
        uint32_t task = 0;
        stepio::Type type = stepio::Stdout;
        std::array<char, 16384> buf{};
    };

    uint32_t job_id = 0, step_id = 0, uid = 0, gid = 0;
    std::string user, label;
    std::string spool;            // its directory in the node's spool
    std::size_t records_seen = 0; // of the spool's records, for a step found again
    std::vector<uint32_t> tasks;
    drover_cont_id cont = 0;
    bool contained = false;
    int32_t shepherd = 0;
    std::map<uint32_t, int32_t> task_pids;
    std::map<uint32_t, int> task_status;
    std::size_t failed_tasks = 0;
    std::unique_ptr<asio::posix::stream_descriptor> status;
    std::array<char, sizeof(ShepherdRecord) * 64> status_buf{};
    std::string status_acc;
    std::vector<std::unique_ptr<Output>> outputs;
    int open_outputs = 0;
    std::map<uint32_t, std::unique_ptr<asio::posix::stream_descriptor>> stdin_pipes;
    std::deque<std::pair<uint32_t, std::string>> stdin_queue; // (task, data); empty data = close
    bool stdin_writing = false;
    std::unique_ptr<tcp::socket> io;
    std::array<uint8_t, 4096> io_buf{};
    std::string io_in;
    std::deque<std::string> outq;
    bool writing = false, io_closed = false;
    bool done_queued = false; // NodeDone is in outq: the connection may close once it is sent
    bool shepherd_done = false, status_done = false, finished = false;
    bool terminating = false;
    uint32_t end_state = 0;
    std::unique_ptr<asio::steady_timer> kill_timer;
    std::unique_ptr<StepSampler> sampler;
    std::unique_ptr<asio::steady_timer> sample_timer;
};

struct StepRunner::Impl : std::enable_shared_from_this<StepRunner::Impl> {
    Impl(asio::io_context &i, const Config &c, std::string n, plugin::PluginSet &p,
         const net::Authenticator &a, Reaper &r, std::function<bool(uint32_t)> adm, Report rp,
         Tell t)
        : io(i), conf(c), node(std::move(n)), plugins(p), auth(a), reaper(r),
          is_admin(std::move(adm)), report(std::move(rp)), tell(std::move(t)) {}

    asio::io_context &io;
    const Config &conf;
    std::string node;
    plugin::PluginSet &plugins;
    const net::Authenticator &auth;
    Reaper &reaper;
    std::function<bool(uint32_t)> is_admin;
    Report report;
    Tell tell;
    std::map<std::pair<uint32_t, uint32_t>, std::shared_ptr<Step>> steps;
    std::set<std::pair<uint32_t, uint32_t>> launched; // never launched twice (replay)
    std::set<uint32_t> jobs_here;                     // jobs whose Prolog ran here
    std::map<uint32_t, int64_t> ended_jobs;           // job -> when it ended (no late launches)
    std::function<void(const std::string &)> unkillable;
    // Supplementary groups by user, looked up at most once a minute: a step's start should not
    // wait on the name service each time.
    struct Groups {
        std::vector<unsigned> ids;
        int64_t when = 0;
    };
    std::map<std::string, Groups> groups;

    std::vector<unsigned> groups_of(const std::string &user, uint32_t gid) {
        int64_t now = int64_t(::time(nullptr));
        auto &g = groups[user];
        if (g.when && now - g.when < 60) return g.ids;
        int n = 64;
        std::vector<gid_t> ids(static_cast<std::size_t>(n));
        if (::getgrouplist(user.c_str(), gid, ids.data(), &n) < 0) {
            ids.resize(std::size_t(n));
            if (::getgrouplist(user.c_str(), gid, ids.data(), &n) < 0) n = 0;
        }
        ids.resize(std::size_t(std::max(n, 0)));
        if (ids.empty()) ids.push_back(gid);
        g.ids.assign(ids.begin(), ids.end());
        g.when = now;
        return g.ids;
    }

    const plugin::Bound<drover_proctrack_ops> &pt() const { return plugins.proctrack(); }

    void send(const std::shared_ptr<Step> &s, std::string bytes) {
        if (!s->io || s->io_closed) return;
        s->outq.push_back(std::move(bytes));
        flush(s);
    }
    void flush(const std::shared_ptr<Step> &s) {
        if (s->writing || s->outq.empty() || !s->io || s->io_closed) return;
        s->writing = true;
        asio::async_write(
            *s->io, asio::buffer(s->outq.front()),
            [self = shared_from_this(), s](boost::system::error_code ec, std::size_t) {
                s->writing = false;
                if (!s->outq.empty()) s->outq.pop_front();
                if (ec) return self->io_lost(s, ec.message());
                self->flush(s);
                self->maybe_close_io(s);
            });
    }
    void maybe_close_io(const std::shared_ptr<Step> &s) {
        if (s->done_queued && s->outq.empty() && !s->writing && s->io && !s->io_closed) {
            boost::system::error_code ec;
            s->io->shutdown(tcp::socket::shutdown_send, ec);
            s->io_closed = true;
            s->io->close(ec);
        }
    }
    // srun went away before the step ended: the step goes too, as Slurm ends a step whose srun
    // is gone.
    void io_lost(const std::shared_ptr<Step> &s, const std::string &why) {
        if (s->io_closed) return;
        s->io_closed = true;
        // The frame being written stays until its write completes (the write holds its bytes).
        while (s->outq.size() > (s->writing ? 1u : 0u)) s->outq.pop_back();
        if (!s->finished) {
            spdlog::warn("step {}: lost srun ({}); terminating it", s->label, why);
            terminate(s, DROVER_JOB_CANCELLED);
        }
    }

    void read_output(const std::shared_ptr<Step> &s, Step::Output *o) {
        o->fd->async_read_some(
            asio::buffer(o->buf),
            [self = shared_from_this(), s, o](boost::system::error_code ec, std::size_t n) {
                if (n) {
                    std::string f;
                    stepio::frame(f, o->type, o->task, {o->buf.data(), n});
                    self->send(s, std::move(f));
                }
                if (ec) {
                    boost::system::error_code ignore;
                    o->fd->close(ignore);
                    --s->open_outputs;
                    return self->maybe_finish(s);
                }
                self->read_output(s, o);
            });
    }

    void read_status(const std::shared_ptr<Step> &s) {
        s->status->async_read_some(
            asio::buffer(s->status_buf),
            [self = shared_from_this(), s](boost::system::error_code ec, std::size_t n) {
                s->status_acc.append(s->status_buf.data(), n);
                while (s->status_acc.size() >= sizeof(ShepherdRecord)) {
                    ShepherdRecord r;
                    std::memcpy(&r, s->status_acc.data(), sizeof r);
                    s->status_acc.erase(0, sizeof r);
                    self->on_record(s, r);
                }
                if (ec) {
                    s->status_done = true;
                    return self->maybe_finish(s);
                }
                self->read_status(s);
            });
    }

    void on_record(const std::shared_ptr<Step> &s, const ShepherdRecord &r) {
        if (r.kind == ShepherdRecord::Started) {
            s->task_pids[r.task] = r.value;
            start_sampler(s);
            return;
        }
        s->task_status[r.task] = r.value;
        if (r.kind == ShepherdRecord::Failed) ++s->failed_tasks, start_sampler(s);
        if (s->sampler && r.kind == ShepherdRecord::Exited)
            s->sampler->task_ended(r.task, rusage_of(r));
        std::string f;
        stepio::frame32(f, stepio::TaskExit, r.task, uint32_t(r.value));
        send(s, std::move(f));
    }

    // Sampling starts once every task's first process is known.
    void start_sampler(const std::shared_ptr<Step> &s) {
        if (s->sampler || s->task_pids.size() + s->failed_tasks < s->tasks.size()) return;
        std::vector<std::pair<uint32_t, int32_t>> tasks(s->task_pids.begin(), s->task_pids.end());
        s->sampler = std::make_unique<StepSampler>(std::move(tasks));
    }

    std::vector<int32_t> pids_of(const Step &s) const {
        std::vector<int32_t> pids(4096);
        uint32_t n = uint32_t(pids.size());
        drover_error err{};
        if (!s.contained ||
            pt().ops.cont_pids(pt().state, s.cont, pids.data(), &n, &err) != DROVER_OK)
            n = 0;
        pids.resize(n);
        return pids;
    }

    void sample(const std::shared_ptr<Step> &s) {
        if (!s->sampler || !s->contained) return;
        auto pids = pids_of(*s);
        s->sampler->sample(pids);
        if (pt().ops.cont_usage) {
            drover_cont_usage cu{};
            cu.struct_size = sizeof cu;
            drover_error err{};
            if (pt().ops.cont_usage(pt().state, s->cont, &cu, &err) == DROVER_OK)
                s->sampler->add_container(cu);
        }
    }

    void arm_sampling(const std::shared_ptr<Step> &s) {
        int period = sample_period(conf.jobacct_gather_frequency);
        if (period <= 0) return;
        s->sample_timer = std::make_unique<asio::steady_timer>(io, std::chrono::seconds(period));
        s->sample_timer->async_wait([self = shared_from_this(), s](boost::system::error_code ec) {
            if (ec || s->finished) return;
            self->sample(s);
            self->arm_sampling(s);
        });
    }

    void maybe_finish(const std::shared_ptr<Step> &s) {
        if (s->finished || !s->shepherd_done || !s->status_done) return;
        if (s->open_outputs > 0) {
            // Processes the tasks left behind may hold the output open: the step is over, so
            // they go (Slurm kills what remains of a step when its tasks have ended).
            if (s->contained) {
                drover_error err{};
                pt().ops.cont_signal(pt().state, s->cont, SIGKILL, &err);
            }
            return;
        }
        s->finished = true;
        if (s->kill_timer) s->kill_timer->cancel();
        if (s->sample_timer) s->sample_timer->cancel();
        StepEnd end;
        end.job_id = s->job_id;
        end.step_id = s->step_id;
        // Tasks with no recorded end were killed along with the shepherd.
        for (uint32_t t : s->tasks)
            end.exit_status =
                worse(end.exit_status, s->task_status.count(t) ? s->task_status[t] : SIGKILL);
        if (s->contained) {
            // The tasks are gone, so /proc has nothing more to say; the container's own figures
            // (the memory peak, OOM kills) still count.
            drover_error err{};
            if (s->sampler && pt().ops.cont_usage) {
                drover_cont_usage cu{};
                cu.struct_size = sizeof cu;
                if (pt().ops.cont_usage(pt().state, s->cont, &cu, &err) == DROVER_OK)
                    s->sampler->add_container(cu);
            }
            pt().ops.cont_signal(pt().state, s->cont, SIGKILL, &err);
            if (pt().ops.cont_destroy) pt().ops.cont_destroy(pt().state, s->cont, &err);
        }
        if (s->sampler) end.usage = s->sampler->summary(node);
        end.state = s->end_state;
        if (!end.state && end.usage.oom_kills > 0) end.state = DROVER_JOB_OOM;
        if (end.state == DROVER_JOB_OOM) {
            spdlog::info("step {}: {} oom_kill event(s); the step ends OUT_OF_MEMORY", s->label,
                         end.usage.oom_kills);
            message(s, oom_message(end.usage.oom_kills, s->label));
        }
        for (auto &[t, p] : s->stdin_pipes) {
            boost::system::error_code ec;
            p->close(ec);
        }
        steps.erase({s->job_id, s->step_id});
        spdlog::info("step {} ended here, status {}", s->label, end.exit_status);
        send_kept_report(
            tell, s->spool, report(end), "step " + s->label,
            [self = shared_from_this(), s, state = end.state, ooms = end.usage.oom_kills] {
                std::string f;
                stepio::frame32(f, stepio::NodeDone, 0, state, ooms, true);
                s->done_queued = true;
                self->send(s, std::move(f));
                self->maybe_close_io(s);
            });
    }

    // A step found again after a restart: the shepherd's records since the last look.
    void read_spooled_records(const std::shared_ptr<Step> &s) {
        for (const auto &r : new_records(s->spool, &s->records_seen)) on_record(s, r);
    }

    // A line srun prints as the step's own ("slurmstepd: error: ...").
    void message(const std::shared_ptr<Step> &s, const std::string &line) {
        std::string f;
        stepio::frame(f, stepio::Message, 0, line);
        send(s, std::move(f));
    }

    void terminate(const std::shared_ptr<Step> &s, uint32_t state) {
        if (!s->end_state) s->end_state = state;
        if (s->terminating || !s->contained) return;
        s->terminating = true;
        spdlog::info("step {}: terminating (container {}, shepherd {})", s->label, s->cont,
                     s->shepherd);
        message(s, "slurmstepd: error: *** STEP " + s->label + " ON " + node + " CANCELLED AT " +
                       format_timestamp(int64_t(::time(nullptr))) +
                       (s->end_state == DROVER_JOB_TIMEOUT ? " DUE TO TIME LIMIT ***" : " ***"));
        drover_error err{};
        pt().ops.cont_signal(pt().state, s->cont, SIGCONT, &err);
        pt().ops.cont_signal(pt().state, s->cont, SIGTERM, &err);
        s->kill_timer =
            std::make_unique<asio::steady_timer>(io, std::chrono::seconds(conf.kill_wait));
        s->kill_timer->async_wait([self = shared_from_this(), s](boost::system::error_code ec) {
            if (ec || s->finished) return;
            drover_error e{};
            self->pt().ops.cont_signal(self->pt().state, s->cont, SIGKILL, &e);
            // Processes that outlive SIGKILL (stuck in the kernel) make the node unfit for work.
            s->kill_timer->expires_after(std::chrono::seconds(self->conf.unkillable_step_timeout));
            s->kill_timer->async_wait([self, s](boost::system::error_code ec2) {
                if (ec2 || s->finished || self->pids_of(*s).empty()) return;
                spdlog::error("step {}: processes survived SIGKILL for {} s", s->label,
                              self->conf.unkillable_step_timeout);
                if (self->unkillable) self->unkillable("Kill task failed");
            });
        });
    }

    // Input from srun: frames for tasks' stdin and signals.
    void read_io(const std::shared_ptr<Step> &s) {
        s->io->async_read_some(asio::buffer(s->io_buf), [self = shared_from_this(),
                                                         s](boost::system::error_code ec,
                                                            std::size_t n) {
            s->io_in.append(reinterpret_cast<const char *>(s->io_buf.data()), n);
            while (s->io_in.size() >= stepio::kHeader) {
                stepio::Header h;
                if (!stepio::parse_header(reinterpret_cast<const uint8_t *>(s->io_in.data()), &h))
                    return self->io_lost(s, "malformed frame from srun");
                if (s->io_in.size() < stepio::kHeader + h.len) break;
                std::string data = s->io_in.substr(stepio::kHeader, h.len);
                s->io_in.erase(0, stepio::kHeader + h.len);
                self->on_input(s, h, std::move(data));
            }
            if (ec) {
                if (!s->finished) return self->io_lost(s, ec.message());
                return;
            }
            self->read_io(s);
        });
    }

    void on_input(const std::shared_ptr<Step> &s, const stepio::Header &h, std::string data) {
        if (h.type == stepio::Signal && data.size() == 4) {
            int sig = int(stepio::get32(reinterpret_cast<const uint8_t *>(data.data())));
            if (sig > 0 && sig < NSIG && s->contained) {
                drover_error err{};
                pt().ops.cont_signal(pt().state, s->cont, sig, &err);
            }
        } else if (h.type == stepio::Stdin || h.type == stepio::StdinEof) {
            // An empty entry in the queue closes that task's input.
            if (h.type == stepio::Stdin && data.empty()) return;
            for (auto &[t, p] : s->stdin_pipes)
                if (h.task == stepio::kAllTasks || h.task == t)
                    s->stdin_queue.emplace_back(t, h.type == stepio::Stdin ? data : std::string());
            write_stdin(s);
        }
    }

    void write_stdin(const std::shared_ptr<Step> &s) {
        if (s->stdin_writing) return;
        while (!s->stdin_queue.empty()) {
            auto &[task, data] = s->stdin_queue.front();
            auto it = s->stdin_pipes.find(task);
            if (it == s->stdin_pipes.end() || !it->second->is_open()) {
                s->stdin_queue.pop_front();
                continue;
            }
            if (data.empty()) {
                boost::system::error_code ec;
                it->second->close(ec);
                s->stdin_queue.pop_front();
                continue;
            }
            s->stdin_writing = true;
            asio::async_write(
                *it->second, asio::buffer(data),
                [self = shared_from_this(), s](boost::system::error_code ec, std::size_t) {
                    s->stdin_writing = false;
                    if (ec) {
                        // the task closed its input: drop what was for it
                        uint32_t t = s->stdin_queue.front().first;
                        boost::system::error_code ig;
                        s->stdin_pipes[t]->close(ig);
                    }
                    s->stdin_queue.pop_front();
                    self->write_stdin(s);
                });
            return;
        }
    }
};

StepRunner::StepRunner(asio::io_context &io, const Config &conf, std::string node,
                       plugin::PluginSet &plugins, const net::Authenticator &auth, Reaper &reaper,
                       std::function<bool(uint32_t)> is_admin, Report report, Tell tell)
    : impl_(std::make_shared<Impl>(io, conf, std::move(node), plugins, auth, reaper,
                                   std::move(is_admin), std::move(report), std::move(tell))) {}

StepRunner::~StepRunner() = default;

std::vector<std::pair<uint32_t, uint32_t>> StepRunner::running() const {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    for (const auto &[k, s] : impl_->steps) out.push_back(k);
    return out;
}

std::string StepRunner::launch(const proto::StepLaunchRequest &req, uint32_t requester,
                               std::vector<int32_t> *pids) {
    auto &I = *impl_;
    if (!req.cred()) return "no job credential";
    const proto::StepCred *cred = nullptr;
    // One per process (all on the loop's thread): the nodes an emulating process hosts share it.
    static net::CheckedCreds checked;
    std::string why =
        net::check_step_cred(I.auth, {req.cred()->data(), req.cred()->size()}, I.is_admin,
                             requester, I.node, int64_t(::time(nullptr)), &cred, &checked);
    if (!why.empty()) return why;
    auto key = std::make_pair(cred->job_id(), cred->step_id());
    if (I.launched.count(key)) return "job credential replayed: step already launched here";
    if (I.ended_jobs.count(key.first))
        return "job " + std::to_string(key.first) + " has already ended";
    if (!req.argv() || req.argv()->size() == 0) return "no command to run";
    uint32_t node_index = 0;
    for (uint32_t i = 0; i < cred->nodes()->size(); ++i)
        if (cred->nodes()->Get(i)->str() == I.node) node_index = i;
    auto s = std::make_shared<Step>();
    s->job_id = cred->job_id();
    s->step_id = cred->step_id();
    s->uid = cred->uid();
    s->gid = cred->gid();
    s->user = str(cred->user_name());
    s->label = std::to_string(s->job_id) + "." + std::to_string(s->step_id);
    // This node's share of the step's tasks: the same request reaches every node of the step.
    const auto *ids = req.task_ids();
    const auto *counts = req.node_task_counts();
    if (!ids || !counts || counts->size() != cred->nodes()->size())
        return "malformed step launch: the task layout does not match the credential's " +
               std::to_string(cred->nodes()->size()) + " node(s)";
    uint64_t first = 0, total = 0;
    for (uint32_t i = 0; i < counts->size(); ++i) {
        if (i < node_index) first += counts->Get(i);
        total += counts->Get(i);
    }
    if (total != ids->size())
        return "malformed step launch: " + std::to_string(ids->size()) + " task id(s) for " +
               std::to_string(total) + " task(s)";
    for (uint64_t k = first; k < first + counts->Get(node_index); ++k)
        s->tasks.push_back(ids->Get(uint32_t(k)));
    if (s->tasks.empty()) return "no tasks for this node";

    ShepherdSpec spec;
    spec.job_id = s->job_id;
    spec.step_id = s->step_id;
    spec.uid = s->uid;
    spec.gid = s->gid;
    spec.user = s->user;
    spec.work_dir = str(req.work_dir());
    for (const auto *a : *req.argv()) spec.argv.push_back(a->str());
    spec.open_append = req.open_append();
    spec.job_node_list = str(cred->job_node_list());
    spec.node = I.node;
    spec.groups = I.groups_of(s->user, s->gid);
    if (!I.conf.prolog.empty() && !I.jobs_here.count(s->job_id)) spec.prolog = I.conf.prolog;
    spec.env = step_environment(*cred, req, node_index, I.node, s->tasks);

    // Where each task's streams go: files the user named, or pipes to us (and on to srun).
    std::string out_pat = str(req.std_out()), err_pat = str(req.std_err()),
                in_pat = str(req.std_in());
    PathContext pc{s->job_id, s->step_id, I.node, node_index, s->user, str(cred->job_name())};
    std::vector<std::vector<std::string>> programs; // --multi-prog: argv per task
    if (req.multi_prog() && req.multi_prog()->size()) {
        try {
            programs = parse_multi_prog(req.multi_prog()->str(), req.num_tasks());
        } catch (const std::exception &e) {
            return e.what();
        }
    }
    std::vector<int> close_after; // our copies of the tasks' ends
    bool pipes_ok = true;
    uint32_t local = 0;
    for (uint32_t t : s->tasks) {
        ShepherdTask st;
        st.task_id = t;
        st.local_id = local++;
        if (t < programs.size()) st.argv = programs[t];
        if (!out_pat.empty()) st.out_path = expand_step_path(out_pat, pc, t, spec.work_dir);
        if (!err_pat.empty())
            st.err_path = expand_step_path(err_pat, pc, t, spec.work_dir);
        else if (!out_pat.empty())
            st.err_path = st.out_path;
        if (req.pty()) {
            // --pty: task 0 runs on a terminal whose other end we hold; the other tasks' output
            // goes nowhere, as in Slurm.
            if (t != 0) {
                st.out_path = st.err_path = "/dev/null";
                st.in_path = "/dev/null";
                spec.tasks.push_back(std::move(st));
                continue;
            }
            int master = -1, slave = -1;
            if (::openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) {
                pipes_ok = false;
                break;
            }
            ::fcntl(master, F_SETFD, FD_CLOEXEC);
            ::fcntl(slave, F_SETFD, FD_CLOEXEC);
            st.in_fd = st.out_fd = st.err_fd = slave;
            spec.pty_fd = slave;
            close_after.push_back(slave);
            s->stdin_pipes[t] = std::make_unique<asio::posix::stream_descriptor>(
                I.io, ::fcntl(master, F_DUPFD_CLOEXEC, 3));
            auto o = std::make_unique<Step::Output>();
            o->fd = std::make_unique<asio::posix::stream_descriptor>(I.io, master);
            o->task = t;
            s->outputs.push_back(std::move(o));
            spec.tasks.push_back(std::move(st));
            continue;
        }
        auto wants_stdin = stdin_target(in_pat);
        if (wants_stdin.file) st.in_path = expand_step_path(in_pat, pc, t, spec.work_dir);
        for (int which = 0; which < 3 && pipes_ok; ++which) {
            bool needed = which == 0   ? (!wants_stdin.file && wants_stdin.takes(t))
                          : which == 1 ? st.out_path.empty()
                                       : st.err_path.empty();
            if (!needed) continue;
            int fds[2];
            if (!make_pipe(fds)) {
                pipes_ok = false;
                break;
            }
            if (which == 0) {
                st.in_fd = fds[0];
                close_after.push_back(fds[0]);
                s->stdin_pipes[t] = std::make_unique<asio::posix::stream_descriptor>(I.io, fds[1]);
            } else {
                (which == 1 ? st.out_fd : st.err_fd) = fds[1];
                close_after.push_back(fds[1]);
                auto o = std::make_unique<Step::Output>();
                o->fd = std::make_unique<asio::posix::stream_descriptor>(I.io, fds[0]);
                o->task = t;
                o->type = which == 1 ? stepio::Stdout : stepio::Stderr;
                s->outputs.push_back(std::move(o));
            }
        }
        spec.tasks.push_back(std::move(st));
    }
    int status_fds[2] = {-1, -1};
    if (!pipes_ok || !make_pipe(status_fds)) {
        for (int fd : close_after) ::close(fd);
        return std::string("cannot create pipes: ") + std::strerror(errno);
    }
    spec.status_fd = status_fds[1];
    // The step's place in the spool, and the records file its shepherd appends to.
    s->spool = step_spool_dir(I.conf, I.node, s->job_id, s->step_id);
    std::error_code fec;
    spec.record_fd = create_step_spool(s->spool);
    auto give_up = [&](std::string why) {
        for (int fd : close_after) ::close(fd);
        for (int fd : {status_fds[0], status_fds[1], spec.record_fd})
            if (fd >= 0) ::close(fd);
        std::filesystem::remove_all(s->spool, fec);
        return why;
    };
    if (spec.record_fd < 0)
        return give_up("cannot create " + s->spool + "/records: " + std::strerror(errno));
    for (const auto &o : s->outputs) spec.drain_fds.push_back(o->fd->native_handle());

    HeldChild child = fork_held();
    pid_t pid = child.pid;
    if (pid < 0) return give_up(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        // Nothing of the daemon's stays open here (our ends of the tasks' pipes would keep their
        // input from ever ending); the tasks' ends must survive their exec.
        std::vector<int> keep{spec.status_fd, spec.record_fd};
        keep.insert(keep.end(), spec.drain_fds.begin(), spec.drain_fds.end());
        for (const auto &t : spec.tasks)
            for (int fd : {t.in_fd, t.out_fd, t.err_fd})
                if (fd >= 0) {
                    ::fcntl(fd, F_SETFD, 0);
                    keep.push_back(fd);
                }
        std::sort(keep.begin(), keep.end());
        int from = 3;
        for (int fd : keep) {
            if (fd > from) ::close_range(unsigned(from), unsigned(fd - 1), 0);
            from = std::max(from, fd + 1);
        }
        ::close_range(unsigned(from), ~0u, 0);
        run_shepherd(spec);
    }
    ::close(status_fds[1]);
    ::close(spec.record_fd);
    for (int fd : close_after) ::close(fd);
    StepLimits limits;
    if (cred->mem_per_node_mb() && node_index < cred->mem_per_node_mb()->size())
        limits.mem_mb = cred->mem_per_node_mb()->Get(node_index);
    if (cred->cpu_ids() && node_index < cred->cpu_ids()->size())
        limits.cpus = cred->cpu_ids()->Get(node_index)->str();
    if (std::string why =
            contain_step(I.pt(), s->job_id, s->step_id, pid, limits, s->label, &s->cont);
        !why.empty()) {
        release(child, false);
        ::close(status_fds[0]);
        I.reaper.watch(pid, [](int, const struct rusage &) {});
        std::filesystem::remove_all(s->spool, fec);
        return why;
    }
    s->contained = true;
    // Recorded before the shepherd may run: a droverd killed from here on finds it again.
    if (!save_spooled_step(s->spool, {s->job_id, s->step_id, s->uid, s->gid, s->user, s->tasks,
                                      s->cont, identify(pid)})) {
        release(child, false);
        ::close(status_fds[0]);
        I.reaper.watch(pid, [](int, const struct rusage &) {});
        std::filesystem::remove_all(s->spool, fec);
        return "cannot write " + s->spool + "/step: " + std::strerror(errno);
    }
    release(child, true);
    s->shepherd = pid;
    I.launched.insert(key);
    I.jobs_here.insert(s->job_id);
    I.steps[key] = s;
    s->status = std::make_unique<asio::posix::stream_descriptor>(I.io, status_fds[0]);
    std::weak_ptr<Impl> weak = impl_;
    I.reaper.watch(pid, [weak, s](int, const struct rusage &) {
        auto self = weak.lock();
        if (!self) return;
        s->shepherd_done = true;
        self->maybe_finish(s);
    });
    I.read_status(s);
    s->open_outputs = int(s->outputs.size());
    for (auto &o : s->outputs) I.read_output(s, o.get());

    // The I/O connection back to srun.
    s->io = std::make_unique<tcp::socket>(I.io);
    std::string key_bytes =
        req.io_key() ? std::string(req.io_key()->begin(), req.io_key()->end()) : "";
    key_bytes.resize(stepio::kKeyLen);
    std::string hello;
    stepio::frame(hello, stepio::Hello, 0, key_bytes + I.node);
    s->outq.push_front(std::move(hello));
    boost::system::error_code ec;
    auto addr = asio::ip::make_address(str(req.io_host()), ec);
    if (ec) {
        spdlog::warn("step {}: srun's address {} is not valid; output is dropped", s->label,
                     str(req.io_host()));
        s->io_closed = true;
    } else {
        tcp::endpoint ep(addr, req.io_port());
        s->writing = true; // nothing is written before the connection is up
        s->io->async_connect(ep, [self = impl_, s](boost::system::error_code e) {
            s->writing = false;
            if (e) return self->io_lost(s, "cannot connect to srun: " + e.message());
            boost::system::error_code ig;
            s->io->set_option(tcp::no_delay(true), ig);
            self->flush(s);
            self->read_io(s);
        });
    }
    I.arm_sampling(s);
    pids->push_back(pid); // the tasks' pids come later, from the shepherd
    spdlog::info("step {} launched: {} task(s) for {}", s->label, s->tasks.size(), s->user);
    return {};
}

std::string StepRunner::signal(uint32_t job_id, uint32_t step_id, int sig, bool terminate,
                               uint32_t end_state, uint32_t requester) {
    auto &I = *impl_;
    auto it = I.steps.find({job_id, step_id});
    if (it == I.steps.end())
        return "no step " + std::to_string(job_id) + "." + std::to_string(step_id) + " here";
    auto s = it->second;
    if (s->uid != requester && !I.is_admin(requester)) return "Access/permission denied";
    if (terminate) {
        I.terminate(s, end_state ? end_state : uint32_t(DROVER_JOB_CANCELLED));
        return {};
    }
    drover_error err{};
    if (s->contained) I.pt().ops.cont_signal(I.pt().state, s->cont, sig, &err);
    return {};
}

std::string StepRunner::stat(uint32_t job_id, uint32_t step_id, uint32_t requester,
                             StepUsageSummary *out, std::vector<int32_t> *pids) {
    auto &I = *impl_;
    auto it = I.steps.find({job_id, step_id});
    if (it == I.steps.end())
        return "no step " + std::to_string(job_id) + "." + std::to_string(step_id) + " here";
    auto s = it->second;
    if (s->uid != requester && !I.is_admin(requester)) return "Access/permission denied";
    I.sample(s);
    if (s->sampler) *out = s->sampler->summary(I.node);
    *pids = I.pids_of(*s);
    return {};
}

void StepRunner::recover() {
    auto &I = *impl_;
    std::weak_ptr<Impl> weak = impl_;
    StepAdoption adoption;
    adoption.found = [&I](uint32_t job_id, uint32_t step_id) {
        I.launched.insert({job_id, step_id});
        I.jobs_here.insert(job_id);
    };
    adoption.adopt = [&I, weak](const SpooledStep &found,
                                const std::string &dir) -> std::function<void()> {
        auto s = std::make_shared<Step>();
        s->job_id = found.job_id;
        s->step_id = found.step_id;
        s->uid = found.uid;
        s->gid = found.gid;
        s->user = found.user;
        s->label = std::to_string(s->job_id) + "." + std::to_string(s->step_id);
        s->spool = dir;
        s->tasks = found.tasks;
        s->cont = found.cont;
        s->contained = true;
        // Its output and srun's connection went with the old droverd; only its end is left.
        s->io_closed = true;
        s->status_done = true;
        s->shepherd = found.shepherd.pid;
        I.steps[{s->job_id, s->step_id}] = s;
        I.read_spooled_records(s);
        I.arm_sampling(s);
        return [weak, s] {
            auto self = weak.lock();
            if (!self) return;
            self->read_spooled_records(s);
            s->shepherd_done = true;
            self->maybe_finish(s);
        };
    };
    recover_steps(I.io, I.conf, I.node, I.tell, I.reaper, adoption);
}

void StepRunner::on_unkillable(std::function<void(const std::string &)> drain) {
    impl_->unkillable = std::move(drain);
}

void StepRunner::job_started_here(uint32_t job_id) {
    impl_->jobs_here.insert(job_id);
}

bool StepRunner::job_ended(uint32_t job_id) {
    auto &I = *impl_;
    // Credentials live minutes at most: an ended job is remembered a little longer than that.
    int64_t now = int64_t(::time(nullptr));
    for (auto it = I.ended_jobs.begin(); it != I.ended_jobs.end();)
        it = now - it->second > 3600 ? I.ended_jobs.erase(it) : std::next(it);
    I.ended_jobs[job_id] = now;
    for (auto &[k, s] : I.steps)
        if (k.first == job_id) I.terminate(s, DROVER_JOB_CANCELLED);
    for (auto it = I.launched.begin(); it != I.launched.end();)
        it = it->first == job_id ? I.launched.erase(it) : std::next(it);
    return I.jobs_here.erase(job_id) > 0;
}

} // namespace drover::noded
