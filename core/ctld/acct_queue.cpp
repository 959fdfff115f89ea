// acct_queue.cpp - the accounting worker thread.
#include "ctld/acct_queue.hpp"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstring>
#include <spdlog/spdlog.h>

#include "net/server.hpp"
#include "proto/message_generated.h"
#include "plugin/cstr.hpp"

namespace drover::ctld {

namespace {
std::string to_string(drover_str s) { return s.ptr ? std::string(s.ptr, s.len) : std::string(); }
}  // namespace

std::vector<uint8_t> encode_acct(int event, const AcctRecord &r) {
    flatbuffers::FlatBufferBuilder fbb(256);
    auto str = [&](const std::string &v) { return fbb.CreateString(v); };
    auto name = str(r.name), part = str(r.partition), acct = str(r.account),
         nodes = str(r.node_list), wd = str(r.work_dir), comment = str(r.comment);
    fbb.Finish(proto::CreateAcctJob(fbb, r.job_id, r.uid, r.gid, 0, name, part, acct, nodes, wd,
                                    r.alloc_nodes, r.alloc_cpus, r.req_cpus, r.req_mem_mb, r.state,
                                    r.exit_status, r.time_limit_min, r.submit_time, r.eligible_time,
                                    r.start_time, r.end_time, r.cancelled_by, r.array_job_id,
                                    r.array_task_id, comment));
    std::vector<uint8_t> out(1 + fbb.GetSize());
    out[0] = uint8_t(event);
    std::memcpy(out.data() + 1, fbb.GetBufferPointer(), fbb.GetSize());
    return out;
}

bool decode_acct(const uint8_t *data, std::size_t len, int *event, AcctRecord *r) {
    if (len < 2) return false;
    // The flatbuffer starts one byte in: copy it to an aligned buffer before verifying.
    std::vector<uint8_t> buf(data + 1, data + len);
    flatbuffers::Verifier v(buf.data(), buf.size());
    if (!v.VerifyBuffer<proto::AcctJob>(nullptr)) return false;
    const auto *j = flatbuffers::GetRoot<proto::AcctJob>(buf.data());
    auto s = [](const flatbuffers::String *x) { return x ? x->str() : std::string(); };
    *event = data[0];
    r->job_id = j->job_id();
    r->uid = j->user_id();
    r->gid = j->group_id();
    r->name = s(j->name());
    r->partition = s(j->partition());
    r->account = s(j->account());
    r->node_list = s(j->node_list());
    r->work_dir = s(j->work_dir());
    r->alloc_nodes = j->alloc_nodes();
    r->alloc_cpus = j->alloc_cpus();
    r->req_cpus = j->req_cpus();
    r->req_mem_mb = j->req_mem_mb();
    r->state = j->state();
    r->exit_status = j->exit_status();
    r->time_limit_min = j->time_limit_min();
    r->submit_time = j->submit_time();
    r->eligible_time = j->eligible_time();
    r->start_time = j->start_time();
    r->end_time = j->end_time();
    r->cancelled_by = j->cancelled_by();
    r->array_job_id = j->array_job_id();
    r->array_task_id = j->array_task_id();
    r->comment = s(j->comment());
    return true;
}

AcctQueue::AcctQueue(boost::asio::io_context &io, const plugin::Bound<drover_acct_ops> &acct,
                     std::string cluster, std::function<void(uint64_t)> delivered)
    : io_(io), acct_(acct), cluster_(std::move(cluster)), delivered_(std::move(delivered)),
      thread_([this] { run(); }) {}

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
    return events_;
}

void AcctQueue::run() {
    bool failing = false;
    for (;;) {
        Item item;
        {
            std::unique_lock lk(mu_);
            cv_.wait(lk, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;  // whatever is left stays spooled for the next start
            item = queue_.front();  // an event leaves the queue only once delivered
        }
        if (item.query) {
            item.query();
            std::lock_guard lk(mu_);
            queue_.pop_front();
            continue;
        }
        std::string why;
        if (deliver(item, &why)) {
            if (failing) spdlog::info("[{}] accounting store is back; delivering spooled records", acct_.id);
            failing = false;
            {
                std::lock_guard lk(mu_);
                queue_.pop_front();
                events_--;
            }
            boost::asio::post(io_, [this, seq = item.seq] { delivered_(seq); });
            continue;
        }
        if (!failing) spdlog::warn("[{}] {}; records are kept and sent again", acct_.id, why);
        failing = true;
        // Queries cannot wait for the store to return: answer them now (they will say why).
        std::vector<std::function<void()>> queries;
        {
            std::unique_lock lk(mu_);
            for (auto it = queue_.begin(); it != queue_.end();)
                if (it->query) {
                    queries.push_back(std::move(it->query));
                    it = queue_.erase(it);
                } else {
                    ++it;
                }
        }
        for (auto &q : queries) q();
        std::unique_lock lk(mu_);
        cv_.wait_for(lk, std::chrono::seconds(2), [this] { return stopping_; });
    }
}

bool AcctQueue::deliver(const Item &item, std::string *why) {
    if (!acct_ || !acct_.ops.job_event) return true;  // no store: nothing to keep
    const AcctRecord &r = item.rec;
    drover_acct_job j{};
    j.struct_size = sizeof j;
    j.job_id = r.job_id;
    j.user_id = r.uid;
    j.group_id = r.gid;
    j.cluster = plugin::cstr(cluster_);
    j.name = plugin::cstr(r.name);
    j.partition = plugin::cstr(r.partition);
    j.account = plugin::cstr(r.account);
    j.node_list = plugin::cstr(r.node_list);
    j.work_dir = plugin::cstr(r.work_dir);
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
    j.array_job_id = r.array_job_id;
    j.array_task_id = r.array_task_id;
    j.comment = plugin::cstr(r.comment);
    drover_error err{};
    if (acct_.ops.job_event(acct_.state, item.event, &j, &err) == DROVER_OK) return true;
    *why = "job " + std::to_string(r.job_id) + ": " + (err.text[0] ? err.text : "store refused the record");
    return false;
}

void AcctQueue::job_event(uint64_t seq, int event, AcctRecord r) {
    {
        std::lock_guard lk(mu_);
        Item item;
        item.seq = seq;
        item.event = event;
        item.rec = std::move(r);
        queue_.push_back(std::move(item));
        events_++;
    }
    cv_.notify_one();
}

void AcctQueue::query(AcctQuery q, std::function<void(std::vector<uint8_t>)> done) {
    {
        std::lock_guard lk(mu_);
        Item item;
        item.query = [this, q = std::move(q), done = std::move(done)] { answer_query(q, done); };
        queue_.push_back(std::move(item));
    }
    cv_.notify_one();
}

void AcctQueue::answer_query(const AcctQuery &q,
                             const std::function<void(std::vector<uint8_t>)> &done) {
    {
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
                auto s = [&](drover_str v) { return b.CreateString(to_string(v)); };
                // Members past the plugin's struct_size were not written by it: read them as 0.
                bool has_array = DROVER_HAS(drover_acct_job, j, comment);
                auto cluster = s(j->cluster), name = s(j->name), part = s(j->partition),
                     acct = s(j->account), nodes = s(j->node_list), wd = s(j->work_dir),
                     comment = has_array ? s(j->comment) : b.CreateString("");
                c->rows->push_back(proto::CreateAcctJob(
                    b, j->job_id, j->user_id, j->group_id, cluster, name, part, acct, nodes, wd,
                    j->alloc_nodes, j->alloc_cpus, j->req_cpus, j->req_mem_mb, j->state,
                    j->exit_status, j->time_limit_min, j->submit_time, j->eligible_time,
                    j->start_time, j->end_time, j->cancelled_by,
                    has_array ? j->array_job_id : 0u,
                    has_array ? j->array_task_id : uint32_t(DROVER_NO_VAL), comment));
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
    }
}

}  // namespace drover::ctld
