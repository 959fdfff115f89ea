// power_save.cpp - the power saving pass: which nodes to power up and down, and the programs.
#include "ctld/power/power_save.hpp"

#include <pwd.h>

#include <algorithm>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "common/hostlist.hpp"
#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/power/resume_file.hpp"
#include "ctld/store/committer.hpp"
#include "proto/fb_read.hpp"

namespace drover::ctld {

namespace {

gid_t gid_of(uid_t uid) {
    struct passwd *pw = ::getpwuid(uid);
    return pw ? pw->pw_gid : gid_t(uid);
}

// Each program given must be one the controller can run, or power saving is off (as Slurm's).
bool programs_runnable(const PowerSaveConf &p) {
    for (const auto &[key, path] : {std::pair{"SuspendProgram", &p.suspend_program},
                                    std::pair{"ResumeProgram", &p.resume_program},
                                    std::pair{"ResumeFailProgram", &p.resume_fail_program}}) {
        std::string why;
        if (!path->empty() && !ProgramRunner::runnable(*path, &why)) {
            spdlog::error("power_save: {} {}: {}; power saving is off", key, *path, why);
            return false;
        }
    }
    return true;
}

} // namespace

PowerSaver::PowerSaver(Ctx &ctx, NodeManager &nodes, JobManager &jobs)
    : ctx_(ctx), nodes_(nodes), jobs_(jobs), runner_(ctx.io, ctx.slurm_uid, gid_of(ctx.slurm_uid)),
      exc_(ctx, nodes), started_(Ctx::now()) {
    enabled_ = programs_runnable(ctx.conf.power);
    if (enabled_ && power_save_enabled(ctx.conf))
        spdlog::info("power saving: nodes idle for SuspendTime are powered down");
    ctx_.events.power_wanted.subscribe([this] { request(); });
}

void PowerSaver::start(bool cold_start) {
    exc_.recover(cold_start);
}

void PowerSaver::reconfigured(const PowerSaveConf &file) {
    exc_.reconfigured(file);
    request(); // nodes no longer kept up may power down now
}

net::Routes PowerSaver::routes() {
    return {{proto::Body::ConfigUpdateRequest, net::Caller::Admin,
             [this](const std::shared_ptr<net::Request> &q, const net::ResponderPtr &r) {
                 const auto *u = q->msg->body_as_ConfigUpdateRequest();
                 Status s =
                     exc_.update(proto::str(u->key()), proto::str(u->op()), proto::str(u->value()));
                 if (!s.ok()) return r->error(s.code(), s.text());
                 request();
                 ctx_.commit.after_commit([r] { r->ok(); });
             }}};
}

void PowerSaver::request() {
    if (requested_) return;
    requested_ = true;
    int64_t wait = int64_t(ctx_.conf.power.min_interval) - (Ctx::now() - last_pass_);
    auto go = [this] {
        requested_ = false;
        pass();
    };
    if (wait <= 0) return boost::asio::post(ctx_.io, go);
    auto t = std::make_shared<boost::asio::steady_timer>(ctx_.io, std::chrono::seconds(wait));
    t->async_wait([t, go](boost::system::error_code ec) {
        if (!ec) go();
    });
}

int64_t PowerSaver::node_setting(uint32_t index, int64_t PartitionConf::*key,
                                 int64_t global) const {
    int64_t v = kPowerGlobal;
    for (const Partition &p : nodes_.partitions()) {
        int64_t pv = (*p.conf).*key;
        if (pv == kPowerGlobal || !p.nodes.test(index)) continue;
        v = (pv == kPowerInfinite || v == kPowerInfinite) ? kPowerInfinite : std::max(v, pv);
    }
    return v == kPowerGlobal ? global : v;
}

bool PowerSaver::suspendable(uint32_t index, int64_t now, const Bitmap &avoid) const {
    const Node &n = nodes_.at(index);
    constexpr uint32_t kBusy = DROVER_NODE_FLAG_COMPLETING | DROVER_NODE_FLAG_POWERED_DOWN |
                               DROVER_NODE_FLAG_POWERING_UP | DROVER_NODE_FLAG_POWERING_DOWN |
                               DROVER_NODE_FLAG_REBOOT_REQUESTED | DROVER_NODE_FLAG_REBOOT_ISSUED;
    if ((n.state != DROVER_NODE_IDLE && n.state != DROVER_NODE_DOWN) || n.run_jobs ||
        (n.flags & kBusy))
        return false;
    if (n.flags & DROVER_NODE_FLAG_POWER_DOWN) return true; // asked for
    if (!enabled_ || avoid.test(index) || exc_.excluded_state(n)) return false;
    int64_t idle_for =
        node_setting(index, &PartitionConf::suspend_time, ctx_.conf.power.suspend_time);
    if (idle_for < 0) return false; // INFINITE
    return now - std::max(n.last_busy, started_) >= idle_for;
}

std::size_t PowerSaver::allowance(uint32_t rate, std::deque<int64_t> &done, int64_t now) {
    while (!done.empty() && now - done.front() >= 60) done.pop_front();
    if (rate == 0) return SIZE_MAX;
    return done.size() >= rate ? 0 : rate - done.size();
}

void PowerSaver::pass() {
    last_pass_ = Ctx::now();
    int64_t now = last_pass_;
    const PowerSaveConf &p = ctx_.conf.power;
    Bitmap avoid = exc_.excluded();
    std::vector<uint32_t> wake, sleep, failed;
    std::size_t may_wake = allowance(p.resume_rate, resumed_, now);
    std::size_t may_sleep = allowance(p.suspend_rate, suspended_, now);
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
        const Node &n = nodes_.at(i);
        if (n.flags & DROVER_NODE_FLAG_POWERING_UP) {
            int64_t limit = node_setting(i, &PartitionConf::resume_timeout, p.resume_timeout);
            if (n.power_time == 0 && wake.size() < may_wake)
                wake.push_back(i);
            else if (n.power_time && now - n.power_time >= limit)
                failed.push_back(i);
        } else if (n.flags & DROVER_NODE_FLAG_POWERING_DOWN) {
            int64_t limit = node_setting(i, &PartitionConf::suspend_timeout, p.suspend_timeout);
            if (now - n.power_time >= limit) nodes_.suspend_done(i);
        } else if (sleep.size() < may_sleep && suspendable(i, now, avoid)) {
            sleep.push_back(i);
        }
    }
    if (!sleep.empty()) suspend(sleep);
    if (!wake.empty()) resume(wake);
    if (!failed.empty()) resume_failed(failed);
}

void PowerSaver::suspend(const std::vector<uint32_t> &idx) {
    std::string hosts = nodes_.names(idx);
    spdlog::info("power_save: powering down {}", hosts);
    for (uint32_t i : idx) {
        nodes_.suspend_issued(i, ctx_.conf.power.idle_on_node_suspend);
        suspended_.push_back(Ctx::now());
    }
    run("SuspendProgram", ctx_.conf.power.suspend_program, hosts, ctx_.conf.power.suspend_timeout);
}

void PowerSaver::resume(const std::vector<uint32_t> &idx) {
    std::string hosts = nodes_.names(idx);
    spdlog::info("power_save: powering up {}", hosts);
    for (uint32_t i : idx) {
        nodes_.resume_issued(i);
        resumed_.push_back(Ctx::now());
    }
    run("ResumeProgram", ctx_.conf.power.resume_program, hosts, ctx_.conf.power.resume_timeout,
        resume_file(idx, hosts));
}

void PowerSaver::resume_failed(const std::vector<uint32_t> &idx) {
    for (uint32_t i : idx) nodes_.resume_failed(i);
    run("ResumeFailProgram", ctx_.conf.power.resume_fail_program, nodes_.names(idx),
        ctx_.conf.power.resume_timeout);
}

std::string PowerSaver::resume_file(const std::vector<uint32_t> &idx,
                                    const std::string &all) const {
    Bitmap waking(nodes_.size());
    for (uint32_t i : idx) waking.set(i);
    std::vector<ResumeJob> jobs;
    for (const Job *j : jobs_.running()) {
        std::vector<uint32_t> mine;
        for (uint32_t i : j->nodes)
            if (waking.test(i)) mine.push_back(i);
        if (!j->configuring() || mine.empty()) continue;
        jobs.push_back({j->id, "", j->ext().constraint, nodes_.names(j->nodes), nodes_.names(mine),
                        j->exclusive ? "NO" : "OK", j->partition, j->ext().reservation});
    }
    return resume_file_json(all, jobs);
}

void PowerSaver::run(const char *label, const std::string &program, const std::string &hosts,
                     uint32_t timeout_s, std::string file_text) {
    if (program.empty() || !enabled_) return;
    ProgramRun r{label,
                 program,
                 {hosts},
                 {{"SLURM_CONF", ctx_.conf.path}},
                 std::move(file_text),
                 std::chrono::seconds(std::max<uint32_t>(timeout_s, 1))};
    runner_.start(std::move(r));
}

} // namespace drover::ctld
