// reservations.cpp - creating, changing, ending reservations and what they mean for jobs.
#include "ctld/resv/reservations.hpp"

#include <pwd.h>

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "common/ascii.hpp"
#include "common/hostlist.hpp"
#include "common/node_shown_flags.hpp"
#include "common/timefmt.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"

namespace drover::ctld {

namespace {

// Slurm takes an UNLIMITED duration as a year.
constexpr int64_t kUnlimitedSecs = 365LL * 24 * 3600;
// A start this far back is taken as now (the line took a moment to arrive); further is refused.
constexpr int64_t kLateStartSecs = 60;

bool shares_nodes(const Bitmap &a, const Bitmap &b) {
    Bitmap both = a;
    both &= b;
    return both.any();
}

// Whether other is a reservation r may not share a node with: another one, at the same time,
// neither of them OVERLAP or MAINT.
bool apart(const Reservation &r, const Reservation &other) {
    return other.name != r.name && !((r.flags | other.flags) & (kResvOverlap | kResvMaint)) &&
           other.overlaps(r.start, r.end);
}

// The end of what a job asks for from now (0: it never ends).
int64_t job_end_from(const Job &job, int64_t now) {
    return job.time_limit_min == kInfinite ? 0 : now + int64_t(job.time_limit_min) * 60;
}

} // namespace

Reservations::Reservations(Ctx &ctx, const NodeManager &nodes, JobManager &jobs)
    : ctx_(ctx), nodes_(nodes), jobs_(jobs) {
    jobs_.set_reservation_check([this](const Job &job) { return check_submit(job); });
    // PURGE_COMP: the reservation goes once no job of it is left.
    ctx_.events.job_ended.subscribe([this](const Job &job) {
        const std::string &name = job.ext().reservation;
        const Reservation *r = find(name);
        if (!r || !(r->flags & kResvPurgeComp)) return;
        for (Job *j : jobs_.pending())
            if (j->ext().reservation == name) return;
        for (Job *j : jobs_.running())
            if (j != &job && j->ext().reservation == name) return;
        spdlog::info("reservation {} purged: its last job {} ended", name, job.id);
        erase(name);
    });
}

const Reservation *Reservations::find(const std::string &name) const {
    auto it = resv_.find(name);
    return it == resv_.end() ? nullptr : &it->second;
}

Status Reservations::create(ResvSpec spec, std::string *name) {
    const int64_t now = Ctx::now();
    Reservation r;
    if (!spec.start) return invalid("A start time must be given");
    r.start = std::max(*spec.start, now);
    if (*spec.start < now - kLateStartSecs) return invalid("Invalid time specified");
    if (spec.end)
        r.end = *spec.end;
    else if (spec.duration_min)
        r.end = r.start + (*spec.duration_min == kInfinite ? kUnlimitedSecs
                                                           : int64_t(*spec.duration_min) * 60);
    else
        return invalid("An end time or duration must be given");
    if (r.end <= r.start) return invalid("Start time cannot be after end time");
    if (!spec.users && !spec.accounts) return invalid("Either Users or Accounts must be specified");
    r.users = spec.users.value_or(NameList{});
    r.accounts = spec.accounts.value_or(NameList{});
    r.flags = spec.flags.value_or(0) | spec.flags_add;
    r.partition = spec.partition.value_or("");
    r.features = spec.features.value_or("");
    r.licenses = spec.licenses.value_or("");
    r.max_start_delay_s = spec.max_start_delay_s.value_or(0);
    if (!spec.nodes && !spec.node_cnt && r.partition.empty())
        return invalid("CoreCnt, Nodes, NodeCnt or Licenses must be specified");
    if (spec.nodes) {
        Bitmap all(nodes_.size());
        std::vector<uint32_t> idx;
        if (*spec.nodes == "ALL") {
            r.flags |= kResvAllNodes;
            for (uint32_t i = 0; i < nodes_.size(); ++i) idx.push_back(i);
        } else {
            r.flags |= kResvSpecNodes;
            for (const auto &n : hostlist_expand(*spec.nodes, nodes_.size() + 1)) {
                int i = nodes_.index_of(n);
                if (i < 0) return invalid("Invalid node name specified");
                idx.push_back(uint32_t(i));
            }
        }
        set_nodes(r, idx);
    }
    r.node_cnt_asked = spec.node_cnt.value_or(0);
    const std::string who = !r.users.empty() && !r.users.exclude ? r.users.names.front()
                            : !r.accounts.empty()                ? r.accounts.names.front()
                                                                 : "resv";
    while (!spec.name && resv_.count(who + "_" + std::to_string(next_id_))) ++next_id_;
    r.name = spec.name ? *spec.name : who + "_" + std::to_string(next_id_++);
    if (r.name.empty()) return invalid("Invalid reservation name");
    if (resv_.count(r.name)) return invalid("Duplicate reservation name");
    if (Status s = check_and_place(r, true); !s.ok()) return s;
    *name = r.name;
    save(r);
    resv_.emplace(r.name, std::move(r));
    ctx_.events.queue_changed.publish();
    return {};
}

Status Reservations::update(const ResvSpec &spec) {
    if (!spec.name) return invalid("Reservation name must be specified");
    auto it = resv_.find(*spec.name);
    if (it == resv_.end()) return invalid("Requested reservation is invalid");
    Reservation r = it->second; // changed whole, or not at all
    const int64_t now = Ctx::now();
    if (spec.start) {
        if (*spec.start < now - kLateStartSecs) return invalid("Invalid time specified");
        const int64_t length = r.end - r.start;
        r.start = std::max(*spec.start, now);
        if (!spec.end && !spec.duration_min) r.end = r.start + length;
    }
    if (spec.end) r.end = *spec.end;
    if (spec.duration_min)
        r.end = r.start + (*spec.duration_min == kInfinite ? kUnlimitedSecs
                                                           : int64_t(*spec.duration_min) * 60);
    if (r.end <= r.start) return invalid("Invalid time specified");
    if (spec.flags) r.flags = *spec.flags | (r.flags & (kResvSpecNodes | kResvAllNodes));
    r.flags = (r.flags | spec.flags_add) & ~spec.flags_remove;
    auto merge = [](NameList &l, const std::optional<NameList> &whole, const NameList &add,
                    const NameList &remove) {
        if (whole) l = *whole;
        for (const auto &n : add.names)
            if (!l.admits(n) || l.exclude) l.names.push_back(n);
        std::erase_if(l.names, [&](const std::string &n) { return remove.admits(n); });
    };
    merge(r.users, spec.users, spec.users_add, spec.users_remove);
    merge(r.accounts, spec.accounts, spec.accounts_add, spec.accounts_remove);
    if (r.users.empty() && r.accounts.empty())
        return invalid("Either Users or Accounts must be specified");
    if (spec.partition) r.partition = *spec.partition;
    if (spec.features) r.features = *spec.features;
    if (spec.max_start_delay_s) r.max_start_delay_s = *spec.max_start_delay_s;
    if (spec.nodes) {
        std::vector<uint32_t> idx;
        for (const auto &n : hostlist_expand(*spec.nodes, nodes_.size() + 1)) {
            int i = nodes_.index_of(n);
            if (i < 0) return invalid("Invalid node name specified");
            idx.push_back(uint32_t(i));
        }
        set_nodes(r, idx);
        r.flags |= kResvSpecNodes;
    }
    if (spec.node_cnt) {
        r.node_cnt_asked = *spec.node_cnt;
        r.node_names.clear();
        r.nodes = Bitmap();
    }
    if (Status s = check_and_place(r, false); !s.ok()) return s;
    save(r);
    it->second = std::move(r);
    ctx_.events.queue_changed.publish();
    return {};
}

Status Reservations::remove(const std::string &name) {
    if (!find(name)) return invalid("Requested reservation is invalid");
    for (Job *j : jobs_.running())
        if (j->ext().reservation == name) return invalid("Requested reservation is in use");
    erase(name);
    ctx_.events.queue_changed.publish();
    return {};
}

// Checks r against the partition, users, other reservations and running jobs, and picks its
// nodes when it asked for a count.
Status Reservations::check_and_place(Reservation &r, bool creating) const {
    if (!r.partition.empty() && !nodes_.partition(r.partition))
        return invalid("Invalid partition name specified");
    for (const auto &u : r.users.names)
        if (!::getpwnam(u.c_str())) return invalid("Invalid user id");
    if (!r.nodes.size() || !r.nodes.any())
        if (Status s = pick_nodes(r); !s.ok()) return s;
    for (const auto &[name, o] : resv_)
        if (apart(r, o) && shares_nodes(o.nodes, r.nodes))
            return invalid("Requested reservation overlaps with another reservation");
    if (creating && !(r.flags & kResvIgnoreJobs) && shares_nodes(held_past(r.start), r.nodes))
        return invalid("Requested nodes are busy");
    return {};
}

// NodeCnt= (or a partition alone: all its nodes): usable nodes of the partition that no running
// job holds past the start and no other reservation holds meanwhile.
Status Reservations::pick_nodes(Reservation &r) const {
    const Partition *part = r.partition.empty() ? nullptr : nodes_.partition(r.partition);
    Bitmap from(nodes_.size());
    if (part)
        from = nodes_.usable(*part);
    else
        for (uint32_t i = 0; i < nodes_.size(); ++i)
            if (nodes_.at(i).usable()) from.set(i);
    const uint32_t want = r.node_cnt_asked ? r.node_cnt_asked : uint32_t(from.count());
    if (!(r.flags & kResvIgnoreJobs)) from.subtract(held_past(r.start));
    for (const auto &[name, o] : resv_)
        if (apart(r, o)) from.subtract(o.nodes);
    std::vector<uint32_t> idx;
    for (std::size_t i = from.next(0); i < from.size() && idx.size() < want; i = from.next(i + 1))
        idx.push_back(uint32_t(i));
    if (idx.size() < want || want == 0) return invalid("Requested nodes are busy");
    set_nodes(r, idx);
    return {};
}

// The nodes running jobs hold past start (one pass over the running jobs, whatever is asked).
Bitmap Reservations::held_past(int64_t start) const {
    Bitmap held(nodes_.size());
    for (Job *j : jobs_.running()) {
        const int64_t end = job_end_from(*j, j->start_time);
        if (end != 0 && end <= start) continue;
        for (uint32_t i : j->nodes)
            if (i < held.size()) held.set(i);
    }
    return held;
}

void Reservations::set_nodes(Reservation &r, const std::vector<uint32_t> &idx) const {
    r.nodes = Bitmap(nodes_.size());
    r.node_names.clear();
    r.cpus = 0;
    for (uint32_t i : idx) {
        if (r.nodes.test(i)) continue;
        r.nodes.set(i);
    }
    for (std::size_t i = r.nodes.next(0); i < r.nodes.size(); i = r.nodes.next(i + 1)) {
        r.node_names.push_back(nodes_.at(uint32_t(i)).conf->name);
        r.cpus += nodes_.at(uint32_t(i)).conf->cpus;
    }
}

// ResvOverRun (minutes, Slurm's default 0; UNLIMITED: kInfinite) from slurm.conf, which the
// configuration checked.
uint32_t Reservations::over_run_min() const {
    auto it = ctx_.conf.raw.find("resvoverrun");
    if (it == ctx_.conf.raw.end()) return 0;
    if (ascii_upper(it->second) == "UNLIMITED") return kInfinite;
    return uint32_t(std::strtoul(it->second.c_str(), nullptr, 10));
}

void Reservations::cut_jobs(const std::string &name, int64_t end) {
    const uint32_t over = over_run_min();
    if (over == kInfinite) return;
    const int64_t until = end + int64_t(over) * 60;
    for (Job *j : jobs_.running()) {
        if (j->ext().reservation != name) continue;
        const auto limit = uint32_t(std::max<int64_t>(1, (until - j->start_time + 59) / 60));
        if (j->time_limit_min != kInfinite && j->time_limit_min <= limit) continue;
        spdlog::info("job {}: reservation {} ended, time limit cut to {} min (ResvOverRun={})",
                     j->id, name, limit, over);
        j->time_limit_min = limit;
        jobs_.persist(*j);
    }
}

void Reservations::tick() {
    const int64_t now = Ctx::now();
    bool changed = false;
    std::vector<std::string> ended;
    for (auto &[name, r] : resv_) {
        changed = changed || (r.start > last_tick_ && r.start <= now);
        if (r.end == 0 || r.end > now) continue;
        changed = true;
        // Its jobs may run ResvOverRun longer, then end TIMEOUT (the time-limit check ends them).
        cut_jobs(name, r.end);
        if (!r.advance()) {
            ended.push_back(name);
            continue;
        }
        while (r.end <= now) r.advance();
        spdlog::info("reservation {} recurs: {} to {}", name, format_timestamp(r.start),
                     format_timestamp(r.end));
        save(r);
    }
    for (const auto &name : ended) {
        spdlog::info("reservation {} ended", name);
        erase(name);
    }
    last_tick_ = now;
    if (changed) ctx_.events.queue_changed.publish();
}

std::string Reservations::check_submit(const Job &job) const {
    const std::string &name = job.ext().reservation;
    if (name.empty()) return {};
    const Reservation *r = find(name);
    if (!r) return "Requested reservation is invalid";
    if (!r->admits(job.user_name, job.account)) return "Access denied to requested reservation";
    return {};
}

const char *Reservations::hold_reason(const Job &job, int64_t now) const {
    const std::string &name = job.ext().reservation;
    if (name.empty()) return nullptr;
    const Reservation *r = find(name);
    if (!r) return "ReservationDeleted";
    if (r->start > now && !(r->flags & kResvFlex)) return "Reservation";
    return nullptr;
}

const Bitmap *Reservations::confine(const Job &job) const {
    const Reservation *r = find(job.ext().reservation);
    return r && !(r->flags & kResvFlex) ? &r->nodes : nullptr;
}

std::vector<Reservations::Window> Reservations::windows(const Job &job) const {
    std::vector<Window> out;
    const std::string &own = job.ext().reservation;
    for (const auto &[name, r] : resv_) {
        // Its own reservation's nodes are its own; like Slurm's, a job in it may start with a
        // time limit past its end.
        if (name == own) continue;
        if ((r.flags & kResvMagnetic) && own.empty() && r.admits(job.user_name, job.account))
            continue; // a magnetic reservation takes in the jobs it admits
        out.push_back({&r.nodes, r.start, r.end, &r});
    }
    return out;
}

bool Reservations::restrict(const Job &job, int64_t now, Bitmap &usable) const {
    const int64_t end = job_end_from(job, now);
    bool maint = false;
    for (const Window &w : windows(job)) {
        const bool during = (end == 0 || w.start < end) && (w.end == 0 || now < w.end);
        if (!during || !shares_nodes(*w.nodes, usable)) continue;
        usable.subtract(*w.nodes);
        maint = maint || (w.resv->flags & kResvMaint);
    }
    return maint;
}

uint32_t Reservations::shown_flags(uint32_t index, int64_t now) const {
    uint32_t shown = 0;
    for (const auto &[name, r] : resv_) {
        if (!r.active(now) || index >= r.nodes.size() || !r.nodes.test(index)) continue;
        shown |= kNodeShownReserved;
        if (r.flags & kResvMaint) shown |= kNodeShownMaint;
    }
    return shown;
}

} // namespace drover::ctld
