// store_space_test.cpp - room in the state store (StateSaveMaxSize): Store::space counts the
// pages never used and, when asked, those LMDB's free list holds; Committer::room_for refuses a
// new record before the map is so full that a commit could fail, and allows it again once
// records are deleted.
#include <unistd.h>

#include <utility>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <gtest/gtest.h>

#include "ctld/store/committer.hpp"

namespace drover::ctld {
namespace {

namespace fs = std::filesystem;

class StoreSpace : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::temp_directory_path() /
              ("drover-space-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
        store = std::make_unique<state::Store>(dir.string(), false, uint64_t{1} << 20);
        commit = std::make_unique<Committer>(io, *store);
    }
    void TearDown() override {
        commit.reset();
        store.reset();
        fs::remove_all(dir);
    }
    void put(uint32_t id, std::size_t bytes) {
        std::string v(bytes, 'x');
        commit->txn().put(state::Table::Scripts, state::job_key(id), state::as_bytes(v));
    }
    fs::path dir;
    boost::asio::io_context io;
    std::unique_ptr<state::Store> store;
    std::unique_ptr<Committer> commit;
};

TEST_F(StoreSpace, FillsUntilRefusedAndRefillsAfterDeletes) {
    state::Store::Space empty = store->space(true);
    EXPECT_EQ(empty.map_bytes, uint64_t{1} << 20);
    EXPECT_GT(empty.free_bytes, 900u << 10);

    // 30 kB records, as a submission with a 30 kB script, until room_for says no.
    uint32_t n = 0;
    while (commit->room_for(30000) && n < 100) {
        put(++n, 30000);
        commit->flush();
    }
    EXPECT_GE(n, 10u);
    EXPECT_LT(n, 35u);
    state::Store::Space full = store->space(true);
    // What is left is the reserve (an eighth of the map) and a little more: a commit still fits.
    EXPECT_GE(full.free_bytes, uint64_t{128} << 10);
    EXPECT_LT(full.free_bytes, uint64_t{400} << 10);
    put(1000, 2000); // a job's change after the refusal
    EXPECT_NO_THROW(commit->flush());

    // Deleted records free their pages for reuse (the file does not shrink: the cheap figure,
    // pages never used, stays low).
    for (uint32_t i = 1; i <= n; ++i) commit->txn().del(state::Table::Scripts, state::job_key(i));
    commit->flush();
    put(1001, 10); // freed pages are reusable from the next transaction on
    commit->flush();
    EXPECT_GT(store->space(true).free_bytes, full.free_bytes + (uint64_t{500} << 10));
    EXPECT_LE(store->space(false).free_bytes, full.free_bytes);
    EXPECT_TRUE(commit->room_for(30000));
    put(2000, 30000);
    EXPECT_NO_THROW(commit->flush());
}

TEST_F(StoreSpace, ThePendingBatchCounts) {
    // Puts not yet committed count against the room too: a burst of submissions in one turn of
    // the loop cannot overrun the map between two commits.
    uint32_t n = 0;
    while (commit->room_for(30000) && n < 100) put(++n, 30000);
    EXPECT_LT(n, 35u);
    EXPECT_NO_THROW(commit->flush());
}

TEST_F(StoreSpace, APutBeyondTheMapFails) {
    EXPECT_THROW(
        {
            for (uint32_t i = 1; i < 100; ++i) put(i, 30000);
        },
        state::StateError);
}

} // namespace
} // namespace drover::ctld
