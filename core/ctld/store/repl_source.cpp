// repl_source.cpp - the active controller's transaction log for standbys, and their pulls.
#include "ctld/store/repl_source.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <spdlog/spdlog.h>

#include "ctld/store/repl_codec.hpp"

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace drover::ctld {

namespace {

// What one pull reply carries at most; a standby far behind pulls again.
constexpr std::size_t kReplyBytes = 16u << 20;
constexpr std::size_t kPageBytes = 4u << 20;
// The log kept for standbys; one that falls further behind copies the tables again.
constexpr std::size_t kLogBytes = 512u << 20;

std::vector<uint8_t> finish(flatbuffers::FlatBufferBuilder &fbb,
                            flatbuffers::Offset<proto::ReplPullResponse> r) {
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ReplPullResponse, r.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

} // namespace

struct ReplSource::Impl {
    struct Entry {
        uint64_t seq, epoch;
        std::vector<state::Change> changes;
        std::size_t bytes;
        Clock::time_point at;
    };
    struct Standby {
        uint64_t acked = 0;
        bool attached = false;
        Clock::time_point last_contact;
        net::ResponderPtr held;
        uint64_t held_from = 0;
        std::shared_ptr<asio::steady_timer> hold_timer;
    };
    struct Waiter {
        std::string name;
        std::function<void(bool)> fn;
        std::shared_ptr<asio::steady_timer> timer;
    };

    asio::io_context &io;
    const state::Store &store;
    Committer &commit;
    std::deque<Entry> log;
    std::size_t log_bytes = 0;
    uint64_t base_seq, base_epoch; // the transaction before the oldest kept
    std::map<std::string, Standby> standbys;
    std::vector<std::shared_ptr<Waiter>> waiters;
    asio::steady_timer detach_timer;
    bool detach_armed = false;

    Impl(asio::io_context &io_, const state::Store &s, Committer &c)
        : io(io_), store(s), commit(c), base_seq(c.seq()),
          base_epoch(state::get_meta_u64(s, kMetaReplEpoch, 0)), detach_timer(io_) {}

    uint64_t head_seq() const { return log.empty() ? base_seq : log.back().seq; }
    uint64_t head_epoch() const { return log.empty() ? base_epoch : log.back().epoch; }

    // Whether a standby that holds seq (made in epoch) shares our history and can continue.
    bool continues(uint64_t seq, uint64_t epoch) const {
        if (seq == base_seq) return epoch == base_epoch;
        if (seq < base_seq || seq > head_seq()) return false;
        return log[seq - base_seq - 1].epoch == epoch;
    }

    void release() {
        uint64_t low = UINT64_MAX;
        for (auto &[name, st] : standbys)
            if (st.attached) low = std::min(low, st.acked);
        commit.released(low);
    }

    std::vector<uint8_t> batches_after(uint64_t from) {
        flatbuffers::FlatBufferBuilder fbb(4096);
        std::vector<flatbuffers::Offset<proto::ReplBatch>> out;
        std::size_t bytes = 0;
        for (uint64_t s = from + 1; s <= head_seq() && bytes < kReplyBytes; ++s) {
            const Entry &e = log[s - base_seq - 1];
            out.push_back(
                proto::CreateReplBatch(fbb, e.seq, e.epoch, encode_changes(fbb, e.changes)));
            bytes += e.bytes;
        }
        auto v = fbb.CreateVector(out);
        proto::ReplPullResponseBuilder b(fbb);
        b.add_epoch(commit.epoch());
        b.add_head_seq(head_seq());
        b.add_batches(v);
        return finish(fbb, b.Finish());
    }

    // One page of the table copy that starts at transaction snap_seq.
    std::vector<uint8_t> page(uint64_t snap_seq, uint64_t snap_epoch, uint8_t table,
                              std::vector<uint8_t> key) {
        std::vector<state::Change> changes;
        std::size_t bytes = 0;
        bool full = false;
        for (; table < state::kTableCount && !full; ++table, key.clear()) {
            store.scan_from(state::Table(table), key, [&](state::Bytes k, state::Bytes v) {
                if (bytes >= kPageBytes) {
                    key.assign(k.begin(), k.end());
                    full = true;
                    return false;
                }
                changes.push_back({state::Table(table),
                                   state::Change::Put,
                                   {k.begin(), k.end()},
                                   {v.begin(), v.end()}});
                bytes += change_size(changes.back());
                return true;
            });
            if (full) break;
        }
        flatbuffers::FlatBufferBuilder fbb(bytes + 1024);
        auto p = encode_changes(fbb, changes);
        auto nk = fbb.CreateVector(key);
        proto::ReplPullResponseBuilder b(fbb);
        b.add_epoch(commit.epoch());
        b.add_head_seq(head_seq());
        b.add_snapshot(true);
        b.add_snap_seq(snap_seq);
        b.add_snap_epoch(snap_epoch);
        b.add_page(p);
        b.add_next_table(table);
        b.add_next_key(nk);
        b.add_last_page(!full);
        return finish(fbb, b.Finish());
    }

    void answer_held(Standby &st) {
        if (!st.held) return;
        auto resp = std::move(st.held);
        st.held.reset();
        if (st.hold_timer) st.hold_timer->cancel();
        st.last_contact = Clock::now();
        resp->reply(batches_after(st.held_from));
    }

    void check_waiters() {
        std::vector<std::shared_ptr<Waiter>> done;
        std::erase_if(waiters, [&](const std::shared_ptr<Waiter> &w) {
            auto it = standbys.find(w->name);
            if (it == standbys.end() || it->second.acked < head_seq()) return false;
            done.push_back(w);
            return true;
        });
        for (auto &w : done) {
            w->timer->cancel();
            auto fn = std::move(w->fn);
            w->fn = nullptr;
            fn(true);
        }
    }

    // Detaches a standby that leaves a transaction unacknowledged for kDetachMs.
    void arm_detach() {
        if (detach_armed) return;
        detach_armed = true;
        detach_timer.expires_after(std::chrono::milliseconds(250));
        detach_timer.async_wait([this](boost::system::error_code ec) {
            detach_armed = false;
            if (ec) return;
            bool any = false;
            auto now = Clock::now();
            for (auto &[name, st] : standbys) {
                if (!st.attached) continue;
                bool behind = st.acked < head_seq() && now - log[st.acked - base_seq].at >
                                                           std::chrono::milliseconds(kDetachMs);
                bool silent = now - st.last_contact > std::chrono::milliseconds(kDetachMs);
                if (behind || silent) {
                    st.attached = false;
                    spdlog::warn(
                        "backup controller {} detached: it has not acknowledged transaction "
                        "{} for {} ms; going on without it",
                        name, st.acked + 1, kDetachMs);
                } else {
                    any = true;
                }
            }
            release();
            if (any) arm_detach();
        });
    }
};

ReplSource::ReplSource(asio::io_context &io, const state::Store &store, Committer &commit)
    : impl_(std::make_unique<Impl>(io, store, commit)) {}

ReplSource::~ReplSource() {
    for (auto &[name, st] : impl_->standbys)
        if (st.hold_timer) st.hold_timer->cancel();
    for (auto &w : impl_->waiters) w->timer->cancel();
}

void ReplSource::committed(uint64_t seq, uint64_t epoch, std::vector<state::Change> changes) {
    auto &I = *impl_;
    std::size_t bytes = 64;
    for (const auto &c : changes) bytes += change_size(c);
    I.log.push_back({seq, epoch, std::move(changes), bytes, Clock::now()});
    I.log_bytes += bytes;
    while (I.log_bytes > kLogBytes && I.log.size() > 1) {
        I.log_bytes -= I.log.front().bytes;
        I.base_seq = I.log.front().seq;
        I.base_epoch = I.log.front().epoch;
        I.log.pop_front();
        for (auto &[name, st] : I.standbys)
            if (st.attached && st.acked < I.base_seq) st.attached = false;
    }
    for (auto &[name, st] : I.standbys) I.answer_held(st);
    if (must_wait()) I.arm_detach(); // watch for a standby that stops acknowledging
}

bool ReplSource::must_wait() const {
    for (const auto &[name, st] : impl_->standbys)
        if (st.attached) return true;
    return false;
}

void ReplSource::on_pull(const proto::ReplPullRequest &req, const net::ResponderPtr &resp) {
    auto &I = *impl_;
    std::string name = req.name() ? req.name()->str() : "?";
    auto &st = I.standbys[name];
    st.last_contact = Clock::now();
    if (st.held) { // its earlier pull gave up waiting
        st.held->reply(I.batches_after(st.held_from));
        st.held.reset();
    }
    if (req.snap_seq() != 0) {
        std::vector<uint8_t> key;
        if (req.snap_key()) key.assign(req.snap_key()->begin(), req.snap_key()->end());
        // A copy whose start fell out of the log gets epoch 0, which continues nothing: the
        // standby then starts a new copy.
        uint64_t snap_epoch = req.snap_seq() == I.base_seq ? I.base_epoch : 0;
        if (req.snap_seq() > I.base_seq && req.snap_seq() <= I.head_seq())
            snap_epoch = I.log[req.snap_seq() - I.base_seq - 1].epoch;
        return resp->reply(I.page(req.snap_seq(), snap_epoch, req.snap_table(), std::move(key)));
    }
    if (!I.continues(req.have_seq(), req.have_epoch())) {
        if (st.attached)
            spdlog::warn("backup controller {} lost its place; copying the tables to it", name);
        else
            spdlog::info("backup controller {} holds transaction {} of epoch {}, not ours: copying "
                         "the tables to it",
                         name, req.have_seq(), req.have_epoch());
        st.attached = false;
        I.release();
        return resp->reply(I.page(I.head_seq(), I.head_epoch(), 0, {}));
    }
    if (!st.attached)
        spdlog::info("backup controller {} attached at transaction {}", name, req.have_seq());
    st.attached = true;
    st.acked = req.have_seq();
    I.release();
    I.check_waiters();
    if (req.have_seq() < I.head_seq() || req.wait_ms() == 0)
        return resp->reply(I.batches_after(req.have_seq()));
    st.held = resp;
    st.held_from = req.have_seq();
    st.hold_timer = std::make_shared<asio::steady_timer>(I.io);
    st.hold_timer->expires_after(
        std::chrono::milliseconds(std::min<uint32_t>(req.wait_ms(), 5000)));
    st.hold_timer->async_wait([this, name](boost::system::error_code ec) {
        if (ec) return;
        auto it = impl_->standbys.find(name);
        if (it != impl_->standbys.end()) impl_->answer_held(it->second);
    });
}

void ReplSource::when_caught_up(const std::string &name, int timeout_ms,
                                std::function<void(bool)> fn) {
    auto &I = *impl_;
    auto it = I.standbys.find(name);
    if (it != I.standbys.end() && it->second.acked >= I.head_seq()) return fn(true);
    auto w = std::make_shared<Impl::Waiter>(Impl::Waiter{name, std::move(fn), nullptr});
    w->timer = std::make_shared<asio::steady_timer>(I.io, std::chrono::milliseconds(timeout_ms));
    I.waiters.push_back(w);
    w->timer->async_wait([this, w](boost::system::error_code ec) {
        if (ec) return;
        std::erase(impl_->waiters, w);
        if (w->fn) w->fn(false);
    });
}

std::vector<ReplSource::StandbyState> ReplSource::standby_states() const {
    std::vector<StandbyState> out;
    for (const auto &[name, st] : impl_->standbys) out.push_back({name, st.acked, st.attached});
    return out;
}

std::vector<std::string> ReplSource::standbys() const {
    std::vector<std::string> out;
    for (const auto &[name, st] : impl_->standbys)
        out.push_back(name +
                      (st.attached ? " (attached, transaction " : " (detached, transaction ") +
                      std::to_string(st.acked) + ")");
    return out;
}

} // namespace drover::ctld
