// acct_queue.cpp - the accounting worker thread.
#include "ctld/acct_queue.hpp"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "net/server.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

namespace {
drover_str dstr(const std::string &s) { return {s.data(), s.size()}; }
drover_str dstr_ptr(const drover_str &s) { return s; }
std::string to_string(drover_str s) { return s.ptr ? std::string(s.ptr, s.len) : std::string(); }
}  // namespace

AcctQueue::AcctQueue(boost::asio::io_context &io, const plugin::Bound<drover_acct_ops> &acct,
                     std::string cluster)
    : io_(io), acct_(acct), cluster_(std::move(cluster)), thread_([this] { run(); }) {}

AcctQueue::~AcctQueue() {
    {
        std::lock_guard lk(mu_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

std::size_t AcctQueue::backlog() const {
    std::lock_guard lk(mu_);
    return queue_.size();
}

void AcctQueue::run() {
    for (;;) {
        std::function<void()> work;
        {
            std::unique_lock lk(mu_);
            cv_.wait(lk, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;
            work = std::move(queue_.front());
            queue_.pop_front();
        }
        work();
    }
}

void AcctQueue::job_event(int event, AcctRecord r) {
    if (!acct_ || !acct_.ops.job_event) return;
    std::lock_guard lk(mu_);
    queue_.push_back([this, event, r = std::move(r)] {
        drover_acct_job j{};
        j.struct_size = sizeof j;
        j.job_id = r.job_id;
        j.user_id = r.uid;
        j.group_id = r.gid;
        j.cluster = dstr(cluster_);
        j.name = dstr(r.name);
        j.partition = dstr(r.partition);
        j.account = dstr(r.account);
        j.node_list = dstr(r.node_list);
        j.work_dir = dstr(r.work_dir);
        j.alloc_nodes = r.alloc_nodes;
        j.alloc_cpus = r.alloc_cpus;
        j.req_cpus = r.req_cpus;
        j.req_mem_mb = r.req_mem_mb;
        j.state = r.state;
        j.exit_status = r.exit_status;
        j.time_limit_min = r.time_limit_min;
        j.submit_time = r.submit_time;
        j.eligible_time = r.eligible_time;
        j.start_time = r.start_time;
        j.end_time = r.end_time;
        j.cancelled_by = r.cancelled_by;
        drover_error err{};
        if (acct_.ops.job_event(acct_.state, event, &j, &err) != DROVER_OK)
            spdlog::error("[{}] job {} event {}: {}", acct_.id, r.job_id, event, err.text);
    });
    cv_.notify_one();
}

void AcctQueue::query(AcctQuery q, std::function<void(std::vector<uint8_t>)> done) {
    std::lock_guard lk(mu_);
    queue_.push_back([this, q = std::move(q), done = std::move(done)] {
        std::vector<uint8_t> out;
        if (!acct_ || !acct_.ops.job_query) {
            out = net::make_error(DROVER_ENOENT, "Accounting storage is disabled");
        } else {
            flatbuffers::FlatBufferBuilder fbb(1 << 16);
            std::vector<flatbuffers::Offset<proto::AcctJob>> rows;
            drover_acct_query dq{};
            dq.struct_size = sizeof dq;
            dq.job_ids = q.job_ids.data();
            dq.job_id_count = uint32_t(q.job_ids.size());
            dq.user_id = q.uid;
            dq.start_after = q.start_after;
            dq.end_before = q.end_before;
            struct Ctx {
                flatbuffers::FlatBufferBuilder *fbb;
                std::vector<flatbuffers::Offset<proto::AcctJob>> *rows;
            } ctx{&fbb, &rows};
            auto emit = [](void *arg, const drover_acct_job *j) -> int {
                auto *c = static_cast<Ctx *>(arg);
                auto &b = *c->fbb;
                auto s = [&](drover_str v) { return b.CreateString(to_string(dstr_ptr(v))); };
                auto cluster = s(j->cluster), name = s(j->name), part = s(j->partition),
                     acct = s(j->account), nodes = s(j->node_list), wd = s(j->work_dir);
                c->rows->push_back(proto::CreateAcctJob(
                    b, j->job_id, j->user_id, j->group_id, cluster, name, part, acct, nodes, wd,
                    j->alloc_nodes, j->alloc_cpus, j->req_cpus, j->req_mem_mb, j->state,
                    j->exit_status, j->time_limit_min, j->submit_time, j->eligible_time,
                    j->start_time, j->end_time, j->cancelled_by));
                return 0;
            };
            drover_error err{};
            if (acct_.ops.job_query(acct_.state, &dq, emit, &ctx, &err) != DROVER_OK) {
                out = net::make_error(DROVER_EIO, std::string("accounting query failed: ") + err.text);
            } else {
                auto v = fbb.CreateVector(rows);
                fbb.Finish(proto::CreateMessage(fbb, proto::Body::AcctQueryResponse,
                                                proto::CreateAcctQueryResponse(fbb, v).Union()));
                out.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
            }
        }
        boost::asio::post(io_, [done, out = std::move(out)]() mutable { done(std::move(out)); });
    });
    cv_.notify_one();
}

}  // namespace drover::ctld
