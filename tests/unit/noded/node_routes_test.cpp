// node_routes_test.cpp - who may ask what of a node: the route table's callers, and what the
// node's router (net::Router with the node's refusal) tells users and the controller.
#include <map>

#include <gtest/gtest.h>

#include <drover/plugin.h>

#include "noded/node_instance.hpp"
#include "proto/fb_read.hpp"

namespace drover::noded {
namespace {

using net::Caller;
using proto::Body;

TEST(NodeRoutes, EachMessageHasTheCallerItHadBefore) {
    std::map<Body, Caller> want{
        {Body::StepLaunchRequest, Caller::Anyone},
        {Body::StepSignalRequest, Caller::Anyone},
        {Body::StepStatRequest, Caller::Anyone},
        {Body::ForwardRequest, Caller::Anyone},
        {Body::PingRequest, Caller::Admin},
        {Body::BatchLaunchRequest, Caller::Admin},
        {Body::JobKillRequest, Caller::Admin},
        {Body::ReconfigureRequest, Caller::Admin},
        {Body::NodeRebootRequest, Caller::Admin},
        // sbcast's blocks and sattach: the broadcast credential or the step's owner decides.
        {Body::FileBcastRequest, Caller::Anyone},
        {Body::StepAttachRequest, Caller::Anyone},
        // scontrol listpids: each sender sees only its own jobs (an administrator every one).
        {Body::StepPidsRequest, Caller::Anyone},
    };
    auto routes = NodeInstance::route_callers();
    EXPECT_EQ(routes.size(), want.size());
    for (const auto &[type, caller] : routes) {
        ASSERT_TRUE(want.count(type)) << proto::EnumNameBody(type);
        EXPECT_EQ(caller, want[type]) << proto::EnumNameBody(type);
    }
}

// The one reply a route or the router sends: its error code and text (0 when not an error).
class Captured : public net::Responder {
  public:
    void reply(std::span<const uint8_t> message) override {
        const auto *m = flatbuffers::GetRoot<proto::Message>(message.data());
        const auto *e = m->body_as_ErrorResponse();
        answer = {e ? e->code() : 0, e ? proto::str(e->message()) : ""};
    }
    std::pair<int, std::string> answer{1, "no reply"};
};

// A router as a node builds it: the node's table and its refusal; each route answers OK.
struct NodeRouter : ::testing::Test {
    net::Router router{[](uint32_t uid) { return uid == 0; }, NodeInstance::kControllerOnly};
    void SetUp() override {
        net::Routes routes;
        for (const auto &[type, who] : NodeInstance::route_callers())
            routes.push_back({type, who, [](const auto &, const auto &r) { r->ok(); },
                              NodeInstance::kControllerOnly});
        router.add(std::move(routes));
    }
    // Sends a message of type (an empty body: the router reads the type only) as uid.
    std::pair<int, std::string> send(Body type, uint32_t uid) {
        flatbuffers::FlatBufferBuilder fbb;
        auto body = fbb.EndTable(fbb.StartTable());
        fbb.Finish(proto::CreateMessage(fbb, type, flatbuffers::Offset<void>(body)));
        auto req = std::make_shared<net::Request>();
        req->bytes.assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
        req->msg = flatbuffers::GetRoot<proto::Message>(req->bytes.data());
        req->peer.uid = uid;
        auto resp = std::make_shared<Captured>();
        router.dispatch(req, resp);
        return resp->answer;
    }
};

TEST_F(NodeRouter, UsersReachTheirRoutesOnly) {
    EXPECT_EQ(send(Body::StepLaunchRequest, 1000).first, 0);
    EXPECT_EQ(send(Body::StepLaunchRequest, 0).first, 0);
    auto no = send(Body::BatchLaunchRequest, 1000);
    EXPECT_EQ(no.first, DROVER_EPERM);
    EXPECT_EQ(no.second, "only the controller may ask this of a node");
    EXPECT_EQ(send(Body::BatchLaunchRequest, 0).first, 0);
}

TEST_F(NodeRouter, AMessageNotServedIsRefused) {
    // To a user as not allowed (nothing is told of what the node serves), to the controller as
    // unexpected.
    auto user = send(Body::PingResponse, 1000);
    EXPECT_EQ(user.first, DROVER_EPERM);
    EXPECT_EQ(user.second, "only the controller may ask this of a node");
    auto ctl = send(Body::PingResponse, 0);
    EXPECT_EQ(ctl.first, DROVER_EINVAL);
    EXPECT_EQ(ctl.second, "unexpected message PingResponse");
}

} // namespace
} // namespace drover::noded
