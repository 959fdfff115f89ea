// hop_budget_test.cpp - the fan-out's bound on hops open at once: a hop takes a slot only while
// as many are free as its subtree has levels, so parents can never take the slots their
// children need.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "net/hop_budget.hpp"

using drover::net::HopBudget;

TEST(HopBudget, GrantsAtOnceWhileEnoughAreFree) {
    HopBudget b(3);
    int ran = 0;
    b.acquire(2, [&] { ++ran; });
    EXPECT_EQ(ran, 1);
    EXPECT_EQ(b.free_slots(), 2u);
    b.acquire(2, [&] { ++ran; }); // 2 free: a two-level subtree may still start
    EXPECT_EQ(ran, 2);
    b.acquire(2, [&] { ++ran; }); // 1 free: only a single node may take it
    EXPECT_EQ(ran, 2);
    EXPECT_EQ(b.waiting(), 1u);
    b.acquire(1, [&] { ++ran; });
    EXPECT_EQ(ran, 3);
    EXPECT_EQ(b.free_slots(), 0u);
    b.release(); // the single node is done: 1 free, not enough for the waiting two-level hop
    EXPECT_EQ(ran, 3);
    b.release();
    EXPECT_EQ(ran, 4);
}

TEST(HopBudget, ParentsNeverStarveTheirChildren) {
    // Two slots; parents need two levels, each parent's child one. However the requests come,
    // every parent and every child runs.
    HopBudget b(2);
    std::vector<std::function<void()>> finish; // ends of the hops running now
    int parents_done = 0;
    std::function<void()> parent = [&] {
        b.acquire(2, [&] {
            // The parent's child: when it is done, so is the parent.
            b.acquire(1, [&] {
                finish.push_back([&] {
                    b.release(); // the child
                    b.release(); // its parent
                    ++parents_done;
                });
            });
        });
    };
    for (int i = 0; i < 5; ++i) parent();
    while (!finish.empty()) {
        auto f = std::move(finish.front());
        finish.erase(finish.begin());
        f();
    }
    EXPECT_EQ(parents_done, 5);
    EXPECT_EQ(b.free_slots(), 2u);
    EXPECT_EQ(b.waiting(), 0u);
}

TEST(HopBudget, ANeedBeyondTheBudgetStillRuns) {
    HopBudget b(2);
    bool ran = false;
    b.acquire(9, [&] { ran = true; });
    EXPECT_TRUE(ran);
}
