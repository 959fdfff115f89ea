// routes_test.cpp - net::Router: a message goes to the one route that serves it; an Admin route
// refuses anyone but root/SlurmUser with its own refusal and never runs; an unknown message and a
// throwing handler become error replies (a drover::Error with its code); a node's router tells
// users less of what it does not serve; a message type served twice is a wiring error.
#include <gtest/gtest.h>

#include <drover/plugin.h>

#include <stdexcept>
#include <string>

#include "common/error.hpp"
#include "net/routes.hpp"

using namespace drover;

namespace {

// Records the one reply a handler or the router sends.
class Captured : public net::Responder {
  public:
    void reply(std::span<const uint8_t> message) override {
        bytes.assign(message.begin(), message.end());
    }
    // The ErrorResponse's code and text; code 0 when the reply was not an error.
    std::pair<int, std::string> error() const {
        const auto *m = flatbuffers::GetRoot<proto::Message>(bytes.data());
        const auto *e = m->body_as_ErrorResponse();
        if (!e) return {0, ""};
        return {e->code(), e->message() ? e->message()->str() : ""};
    }
    std::vector<uint8_t> bytes;
};

std::shared_ptr<net::Request> request(proto::Body type, uint32_t uid) {
    flatbuffers::FlatBufferBuilder fbb;
    flatbuffers::Offset<void> body;
    if (type == proto::Body::ConfigRequest)
        body = proto::CreateConfigRequest(fbb).Union();
    else
        body = proto::CreateShutdownRequest(fbb).Union();
    fbb.Finish(proto::CreateMessage(fbb, type, body));
    auto req = std::make_shared<net::Request>();
    req->bytes.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    req->msg = flatbuffers::GetRoot<proto::Message>(req->bytes.data());
    req->peer.uid = uid;
    return req;
}

struct RouterTest : ::testing::Test {
    int config_calls = 0, shutdown_calls = 0;
    net::Router router{[](uint32_t uid) { return uid == 0 || uid == 450; }};
    void SetUp() override {
        router.add({{proto::Body::ConfigRequest, net::Caller::Anyone,
                     [this](const auto &, const auto &r) {
                         ++config_calls;
                         r->ok();
                     }},
                    {proto::Body::ShutdownRequest, net::Caller::Admin,
                     [this](const auto &, const auto &r) {
                         ++shutdown_calls;
                         r->ok();
                     },
                     "shutdown must come from SlurmUser"}});
    }
    std::pair<int, std::string> send(proto::Body type, uint32_t uid) {
        auto resp = std::make_shared<Captured>();
        router.dispatch(request(type, uid), resp);
        EXPECT_FALSE(resp->bytes.empty()) << "no reply";
        return resp->error();
    }
};

TEST_F(RouterTest, AnyoneRouteServesEveryUser) {
    EXPECT_EQ(send(proto::Body::ConfigRequest, 1234).first, 0);
    EXPECT_EQ(send(proto::Body::ConfigRequest, 0).first, 0);
    EXPECT_EQ(config_calls, 2);
}

TEST_F(RouterTest, AdminRouteRefusesUsersWithItsRefusal) {
    auto [code, text] = send(proto::Body::ShutdownRequest, 1234);
    EXPECT_EQ(code, DROVER_EPERM);
    EXPECT_EQ(text, "shutdown must come from SlurmUser");
    EXPECT_EQ(shutdown_calls, 0);
    EXPECT_EQ(send(proto::Body::ShutdownRequest, 450).first, 0); // SlurmUser
    EXPECT_EQ(send(proto::Body::ShutdownRequest, 0).first, 0);   // root
    EXPECT_EQ(shutdown_calls, 2);
    ASSERT_NE(router.caller_of(proto::Body::ShutdownRequest), nullptr);
    EXPECT_EQ(*router.caller_of(proto::Body::ShutdownRequest), net::Caller::Admin);
}

TEST_F(RouterTest, UnservedMessageIsRefusedByName) {
    net::Router empty{[](uint32_t) { return true; }};
    auto resp = std::make_shared<Captured>();
    empty.dispatch(request(proto::Body::ConfigRequest, 0), resp);
    auto [code, text] = resp->error();
    EXPECT_EQ(code, DROVER_EINVAL);
    EXPECT_EQ(text, "unexpected message ConfigRequest");
    EXPECT_EQ(empty.caller_of(proto::Body::ConfigRequest), nullptr);
}

TEST_F(RouterTest, ThrowingHandlerBecomesAnErrorReply) {
    net::Router r{[](uint32_t) { return false; }};
    r.add({{proto::Body::ConfigRequest, net::Caller::Anyone,
            [](const auto &, const auto &) -> void { throw std::runtime_error("disk full"); }}});
    auto resp = std::make_shared<Captured>();
    r.dispatch(request(proto::Body::ConfigRequest, 7), resp);
    auto [code, text] = resp->error();
    EXPECT_EQ(code, DROVER_EIO);
    EXPECT_EQ(text, "disk full");
}

TEST_F(RouterTest, AThrownErrorKeepsItsCode) {
    net::Router r{[](uint32_t) { return false; }};
    r.add({{proto::Body::ConfigRequest, net::Caller::Anyone,
            [](const auto &, const auto &) -> void { throw ParseError("line 3: bad value"); }}});
    auto resp = std::make_shared<Captured>();
    r.dispatch(request(proto::Body::ConfigRequest, 7), resp);
    EXPECT_EQ(resp->error(), (std::pair<int, std::string>{DROVER_EINVAL, "line 3: bad value"}));
}

// A node's router tells a user who is not an admin nothing of what it does not serve.
TEST_F(RouterTest, UsersMayBeToldLessOfWhatIsNotServed) {
    net::Router r{[](uint32_t uid) { return uid == 0; }, "only the controller may ask this"};
    auto user = std::make_shared<Captured>(), admin = std::make_shared<Captured>();
    r.dispatch(request(proto::Body::ConfigRequest, 7), user);
    r.dispatch(request(proto::Body::ConfigRequest, 0), admin);
    EXPECT_EQ(user->error(),
              (std::pair<int, std::string>{DROVER_EPERM, "only the controller may ask this"}));
    EXPECT_EQ(admin->error(),
              (std::pair<int, std::string>{DROVER_EINVAL, "unexpected message ConfigRequest"}));
}

TEST_F(RouterTest, TypeServedTwiceIsAWiringError) {
    EXPECT_THROW(router.add({{proto::Body::ConfigRequest, net::Caller::Anyone,
                              [](const auto &, const auto &) {}}}),
                 std::logic_error);
}

} // namespace
