// acct_queue.cpp - the accounting worker thread.
#include "ctld/acct/acct_queue.hpp"

#include "ctld/acct/acct_codec.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <variant>
#include <spdlog/spdlog.h>

#include "common/status.hpp"
#include "ctld/acct/acct_spool.hpp"
#include "net/server.hpp"
#include "proto/message_generated.h"
#include "plugin/cstr.hpp"

namespace drover::ctld {

AcctQueue::AcctQueue(boost::asio::io_context &io, plugin::AcctCalls acct, std::string cluster,
                     std::function<void(uint64_t)> delivered)
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
            if (stopping_) return; // whatever is left stays spooled for the next start
            item = queue_.front(); // an event leaves the queue only once delivered
        }
        if (item.query) {
            item.query();
            std::lock_guard lk(mu_);
            queue_.pop_front();
            continue;
        }
        Status delivered = deliver(item);
        if (delivered.ok()) {
            if (failing)
                spdlog::info("[{}] accounting store is back; delivering spooled records",
                             acct_.id());
            failing = false;
            {
                std::lock_guard lk(mu_);
                queue_.pop_front();
                events_--;
            }
            boost::asio::post(io_, [this, seq = item.seq] { delivered_(seq); });
            continue;
        }
        if (!failing) spdlog::warn("{}; records are kept and sent again", delivered.text());
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

namespace {
// s, its text led by which record it was about.
Status about(const std::string &record, const Status &s) {
    return s.ok() ? s : Status(s.code(), record + ": " + s.text());
}
} // namespace

Status AcctQueue::deliver(const Item &item) {
    return std::visit([&](const auto &rec) { return deliver(item.event, rec); }, item.rec);
}

// With no store loaded, or one older than steps (ABI 1.3) or node events (1.4), the op is absent
// and AcctCalls answers DROVER_OK: nothing keeps the record, and nothing is owed.
Status AcctQueue::deliver(int event, const AcctRecord &r) {
    drover_acct_job j = acct_codec::job_view(r);
    j.cluster = plugin::cstr(cluster_);
    return about("job " + std::to_string(r.job_id), acct_.job_event(event, j));
}

Status AcctQueue::deliver(int event, const AcctStepRecord &r) {
    return about("step " + std::to_string(r.job_id) + "." + std::to_string(r.step_id),
                 acct_.step_event(event, acct_codec::step_view(r)));
}

Status AcctQueue::deliver(int, const AcctNodeEvent &r) {
    drover_acct_node_event ev = acct_codec::node_event_view(r);
    ev.cluster = plugin::cstr(cluster_);
    return about("event of node " + r.node_name, acct_.node_event(ev));
}

void AcctQueue::record(uint64_t seq, int event, AcctPayload r) {
    {
        std::lock_guard lk(mu_);
        queue_.push_back(Item{seq, event, std::move(r), {}});
        events_++;
    }
    cv_.notify_one();
}

void AcctQueue::push_task(std::function<void()> task) {
    {
        std::lock_guard lk(mu_);
        Item item;
        item.query = std::move(task);
        queue_.push_back(std::move(item));
    }
    cv_.notify_one();
}

void AcctQueue::query(AcctQuery q, std::function<void(std::vector<uint8_t>)> done) {
    push_task([this, q = std::move(q), done = std::move(done)] { answer_query(q, done); });
}

void AcctQueue::event_query(AcctEventQuery q, std::function<void(std::vector<uint8_t>)> done) {
    push_task([this, q = std::move(q), done = std::move(done)] { answer_event_query(q, done); });
}

void AcctQueue::store_task(std::function<Status(const plugin::AcctCalls &)> task,
                           std::function<void(Status)> done) {
    push_task([this, task = std::move(task), done = std::move(done)] {
        boost::asio::post(io_, [done, s = task(acct_)] { done(s); });
    });
}

void AcctQueue::answer_query(const AcctQuery &q,
                             const std::function<void(std::vector<uint8_t>)> &done) {
    std::vector<uint8_t> out;
    if (!acct_.answers_job_query(!q.jobs_only)) {
        out = net::make_error(DROVER_ENOENT, kAcctDisabled);
    } else {
        drover_acct_query dq{};
        dq.struct_size = sizeof dq;
        dq.job_ids = q.job_ids.data();
        dq.job_id_count = uint32_t(q.job_ids.size());
        dq.user_id = q.uid;
        dq.start_after = q.start_after;
        dq.end_before = q.end_before;
        dq.duplicates = q.duplicates;
        AcctFilterArgs filters(q.filters, dq);
        AcctFilteredRows rows(dq, acct_.abi_minor());
        Status s = acct_.job_query(
            dq, !q.jobs_only, [&rows](const drover_acct_job &j) { rows.job(j); },
            [&rows](const drover_acct_step &st) { rows.step(st); });
        if (!s.ok())
            out = net::make_error(DROVER_EIO, "accounting query failed: " + s.text());
        else
            out = rows.finish();
    }
    boost::asio::post(io_, [done, out = std::move(out)]() mutable { done(std::move(out)); });
}

void AcctQueue::answer_event_query(const AcctEventQuery &q,
                                   const std::function<void(std::vector<uint8_t>)> &done) {
    std::vector<uint8_t> out;
    if (!acct_) {
        out = net::make_error(DROVER_ENOENT, kAcctDisabled);
    } else if (!acct_.keeps_node_events()) {
        out = net::make_error(DROVER_ENOENT, acct_.id() + " keeps no node events");
    } else {
        std::vector<drover_str> clusters, nodes;
        for (const auto &c : q.clusters) clusters.push_back(plugin::cstr(c));
        for (const auto &n : q.nodes) nodes.push_back(plugin::cstr(n));
        drover_acct_event_query dq{};
        dq.struct_size = sizeof dq;
        dq.cluster_count = uint32_t(clusters.size());
        dq.clusters = clusters.data();
        dq.node_count = uint32_t(nodes.size());
        dq.node_names = nodes.data();
        dq.period_start = q.period_start;
        dq.period_end = q.period_end;
        AcctEventResponseBuilder rows;
        Status s = acct_.node_event_query(
            dq, [&rows](const drover_acct_node_event &ev) { rows.event(ev); });
        if (!s.ok())
            out = net::make_error(DROVER_EIO, "accounting query failed: " + s.text());
        else
            out = rows.finish();
    }
    boost::asio::post(io_, [done, out = std::move(out)]() mutable { done(std::move(out)); });
}

} // namespace drover::ctld
