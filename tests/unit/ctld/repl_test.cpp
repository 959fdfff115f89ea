// repl_test.cpp - a standby's store follows the active controller's through ReplSource and
// ReplReplica: transactions in order, a table copy for a standby that is behind or holds another
// history, and the Committer holding what waits on a commit until the standby has it.
#include <utility>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>

#include "ctld/store/committer.hpp"
#include "ctld/store/repl_replica.hpp"
#include "ctld/store/repl_source.hpp"

namespace drover::ctld {
namespace {

namespace fs = std::filesystem;
using Tables = std::map<std::pair<int, std::vector<uint8_t>>, std::vector<uint8_t>>;

Tables dump(const state::Store &s) {
    Tables out;
    for (int t = 0; t < state::kTableCount; ++t)
        s.scan(state::Table(t), [&](state::Bytes k, state::Bytes v) {
            out[{t, {k.begin(), k.end()}}] = {v.begin(), v.end()};
        });
    return out;
}

// Keeps the reply a source gives (the unit's stand-in for the network).
struct Captured : net::Responder {
    std::vector<uint8_t> bytes;
    void reply(std::span<const uint8_t> m) override { bytes.assign(m.begin(), m.end()); }
};

class Repl : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::temp_directory_path() /
              ("drover-repl-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
        active = std::make_unique<state::Store>((dir / "a").string(), false);
        standby = std::make_unique<state::Store>((dir / "b").string(), false);
    }
    void TearDown() override {
        source.reset();
        commit.reset();
        fs::remove_all(dir);
    }
    void take_control(uint64_t epoch) {
        source.reset();
        commit = std::make_unique<Committer>(io, *active);
        source = std::make_unique<ReplSource>(io, *active, *commit);
        commit->set_listener(source.get());
        commit->set_epoch(epoch);
    }
    void put(const std::string &k, const std::string &v) {
        commit->txn().put(state::Table::Jobs, state::as_bytes(k), state::as_bytes(v));
    }
    // One pull by the standby and its application; returns the reply.
    struct Pulled {
        bool snapshot = false, last_page = false;
        std::size_t batches = 0;
    };
    Pulled pull(ReplReplica &r) {
        auto req = r.pull_request("b", 0);
        auto *m = flatbuffers::GetRoot<proto::Message>(req.data());
        auto resp = std::make_shared<Captured>();
        source->on_pull(*m->body_as_ReplPullRequest(), resp);
        EXPECT_FALSE(resp->bytes.empty());
        auto *reply =
            flatbuffers::GetRoot<proto::Message>(resp->bytes.data())->body_as_ReplPullResponse();
        r.apply(*reply);
        return {reply->snapshot(), reply->last_page(),
                reply->batches() ? reply->batches()->size() : 0};
    }
    void sync(ReplReplica &r) {
        pull(r);
        for (int i = 0; i < 100 && !(r.caught_up() && r.seq() == commit->seq()); ++i) pull(r);
    }

    fs::path dir;
    boost::asio::io_context io;
    std::unique_ptr<state::Store> active, standby;
    std::unique_ptr<Committer> commit;
    std::unique_ptr<ReplSource> source;
};

TEST_F(Repl, StandbyFollowsTransactionsInOrder) {
    take_control(1);
    ReplReplica replica(*standby);
    pull(replica); // an empty standby first copies the (empty) tables, then follows
    put("job1", "pending");
    commit->flush();
    put("job2", "pending");
    commit->flush();
    commit->txn().del(state::Table::Jobs, state::as_bytes("job1"));
    commit->flush();
    auto r = pull(replica);
    EXPECT_FALSE(r.snapshot);
    EXPECT_EQ(3u, r.batches);
    EXPECT_EQ(commit->seq(), replica.seq());
    EXPECT_EQ(dump(*active), dump(*standby));
    EXPECT_FALSE(standby->get(state::Table::Jobs, state::as_bytes("job1")));
}

TEST_F(Repl, DivergedStandbyGetsTheActiveTables) {
    // The standby was in control alone for a while: its history differs at the same sequence.
    {
        Committer other(io, *standby);
        other.set_epoch(7);
        other.txn().put(state::Table::Jobs, state::as_bytes("job9"), state::as_bytes("requeued"));
        other.flush();
    }
    take_control(8);
    put("job9", "completed");
    commit->flush();
    ASSERT_EQ(commit->seq(),
              state::get_meta_u64(*standby, kMetaReplSeq, 0)); // same seq, other epoch
    ReplReplica replica(*standby);
    auto r = pull(replica);
    EXPECT_TRUE(r.snapshot);
    sync(replica);
    EXPECT_EQ(dump(*active), dump(*standby));
    auto v = standby->get(state::Table::Jobs, state::as_bytes("job9"));
    ASSERT_TRUE(v);
    EXPECT_EQ("completed", std::string(v->begin(), v->end()));
}

TEST_F(Repl, LargeTablesArriveInPagesAndChangesDuringTheCopyAreKept) {
    take_control(1);
    std::string big(3000, 'x');
    for (int i = 0; i < 4000; ++i) put("job" + std::to_string(i), big);
    commit->flush();
    take_control(2); // a controller that takes control keeps no log from before
    ReplReplica replica(*standby);
    auto first = pull(replica);
    EXPECT_TRUE(first.snapshot);
    EXPECT_FALSE(first.last_page); // 12 MB does not fit one page
    put("job1", "changed while copying");
    commit->txn().del(state::Table::Jobs, state::as_bytes("job5"));
    commit->flush();
    sync(replica);
    EXPECT_EQ(dump(*active), dump(*standby));
}

TEST_F(Repl, CommitWaitsForTheAttachedStandby) {
    take_control(1);
    ReplReplica replica(*standby);
    sync(replica); // attached
    bool told = false;
    put("job1", "pending");
    commit->after_commit([&] { told = true; });
    commit->flush();
    EXPECT_FALSE(told) << "a client must not hear of a change the backup lacks";
    pull(replica); // applies it
    pull(replica); // and acknowledges it
    EXPECT_TRUE(told);
}

TEST_F(Repl, MalformedChangeIsRefusedAndNothingApplied) {
    flatbuffers::FlatBufferBuilder fbb;
    auto bad = proto::CreateReplChange(fbb, 99, 0, fbb.CreateVector(std::vector<uint8_t>{1}));
    std::vector<flatbuffers::Offset<proto::ReplBatch>> bs{
        proto::CreateReplBatch(fbb, 1, 1, fbb.CreateVector(std::vector{bad}))};
    auto v = fbb.CreateVector(bs);
    proto::ReplPullResponseBuilder b(fbb);
    b.add_batches(v);
    b.add_head_seq(1);
    fbb.Finish(b.Finish());
    ReplReplica replica(*standby);
    EXPECT_THROW(
        replica.apply(*flatbuffers::GetRoot<proto::ReplPullResponse>(fbb.GetBufferPointer())),
        std::runtime_error);
    EXPECT_EQ(0u, replica.seq());
    EXPECT_TRUE(dump(*standby).empty());
}

} // namespace
} // namespace drover::ctld
