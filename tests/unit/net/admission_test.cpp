// admission_test.cpp - net::Admission: limits in all and per peer, the oldest waiting connection
// evicted for a new one once it has waited min_age, refusal while all are younger, and what an
// authenticated connection is exempt from.
#include <gtest/gtest.h>

#include <vector>

#include "net/admission.hpp"

namespace drover::net {
namespace {

using namespace std::chrono_literals;

struct Fixture {
    Admission adm;
    Admission::Clock::time_point t = Admission::Clock::time_point{} + 1h;
    std::vector<Admission::Id> evicted;

    explicit Fixture(Admission::Limits l) : adm(l) {}
    Admission::Id open(const std::string &peer) {
        auto slot = std::make_shared<Admission::Id>(0);
        Admission::Id id = adm.open(
            peer, [this, slot] { evicted.push_back(*slot); }, t);
        *slot = id;
        return id;
    }
};

Admission::Limits limits(std::size_t open, std::size_t waiting, std::size_t per_peer) {
    Admission::Limits l;
    l.open = open;
    l.waiting = waiting;
    l.waiting_per_peer = per_peer;
    l.min_age = 1s;
    return l;
}

TEST(Admission, EvictsTheOldestWaitingOnceItIsOldEnough) {
    Fixture f(limits(100, 3, 3));
    Admission::Id a = f.open("x"), b = f.open("y"), c = f.open("z");
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(f.open("w"), 0u); // all younger than min_age: the newcomer is refused
    f.t += 2s;
    Admission::Id d = f.open("w");
    EXPECT_NE(d, 0u);
    EXPECT_EQ(f.evicted, std::vector<Admission::Id>{a});
    EXPECT_EQ(f.adm.waiting_count(), 3u);
}

TEST(Admission, OnePeerCannotTakeEveryWaitingSlot) {
    Fixture f(limits(100, 10, 2));
    Admission::Id a = f.open("flood");
    f.open("flood");
    EXPECT_EQ(f.open("flood"), 0u);
    EXPECT_NE(f.open("node"), 0u); // another peer still gets in
    f.t += 2s;
    EXPECT_NE(f.open("flood"), 0u); // by evicting the flood's own oldest, not the node
    EXPECT_EQ(f.evicted, std::vector<Admission::Id>{a});
}

TEST(Admission, AuthenticatedConnectionsAreNotEvictedButCountAsOpen) {
    Fixture f(limits(3, 3, 3));
    Admission::Id a = f.open("x");
    f.adm.authenticated(a);
    f.open("x");
    f.open("x");
    f.t += 2s;
    EXPECT_NE(f.open("x"), 0u); // open is full: a waiting one goes, the authenticated one stays
    EXPECT_EQ(f.evicted.size(), 1u);
    EXPECT_NE(f.evicted[0], a);
    EXPECT_EQ(f.adm.open_count(), 3u);
}

TEST(Admission, WaitingAgainNeedsRoomToo) {
    Fixture f(limits(10, 2, 2));
    Admission::Id a = f.open("x");
    f.adm.authenticated(a);
    f.open("y");
    f.open("z");
    EXPECT_FALSE(f.adm.wait(a, f.t)); // no room and nobody old enough: the caller closes it
    f.adm.close(a);                   // closing a forgotten id is harmless
    EXPECT_EQ(f.adm.open_count(), 2u);
}

TEST(Admission, LimitsKeepDescriptorsInReserve) {
    auto l = Admission::for_descriptors(20000);
    EXPECT_EQ(l.open, 20000u - 2500u);
    EXPECT_EQ(l.waiting, l.open / 2);
    EXPECT_EQ(l.waiting_per_peer, l.waiting / 4);
    auto small = Admission::for_descriptors(100);
    EXPECT_LE(small.open, 100u - 64u);
}

} // namespace
} // namespace drover::net
