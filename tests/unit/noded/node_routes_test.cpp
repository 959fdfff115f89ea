// node_routes_test.cpp - who may ask what of a node: the route table's callers, and the admission
// of a request by them (noded/node_routes.hpp).
#include <map>

#include <gtest/gtest.h>

#include <drover/plugin.h>

#include "noded/node_instance.hpp"
#include "noded/node_routes.hpp"

namespace drover::noded {
namespace {

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
        // sbcast's blocks and sattach: the broadcast credential or the step's owner decides.
        {Body::FileBcastRequest, Caller::Anyone},
        {Body::StepAttachRequest, Caller::Anyone},
    };
    auto routes = NodeInstance::route_callers();
    EXPECT_EQ(routes.size(), want.size());
    for (const auto &[type, caller] : routes) {
        ASSERT_TRUE(want.count(type)) << proto::EnumNameBody(type);
        EXPECT_EQ(caller, want[type]) << proto::EnumNameBody(type);
    }
}

TEST(NodeRoutes, UsersReachTheirRoutesOnly) {
    Caller user = Caller::Anyone, ctl = Caller::Admin;
    EXPECT_FALSE(admit(&user, Body::StepLaunchRequest, false));
    EXPECT_FALSE(admit(&user, Body::StepLaunchRequest, true));
    auto no = admit(&ctl, Body::BatchLaunchRequest, false);
    ASSERT_TRUE(no);
    EXPECT_EQ(no->code, DROVER_EPERM);
    EXPECT_EQ(no->why, "only the controller may ask this of a node");
    EXPECT_FALSE(admit(&ctl, Body::BatchLaunchRequest, true));
}

TEST(NodeRoutes, AMessageNotServedIsRefused) {
    // To a user as not allowed (nothing is told of what the node serves), to the controller as
    // unexpected.
    auto user = admit(nullptr, Body::PingResponse, false);
    ASSERT_TRUE(user);
    EXPECT_EQ(user->code, DROVER_EPERM);
    auto ctl = admit(nullptr, Body::PingResponse, true);
    ASSERT_TRUE(ctl);
    EXPECT_EQ(ctl->code, DROVER_EINVAL);
    EXPECT_EQ(ctl->why, "unexpected message PingResponse");
}

} // namespace
} // namespace drover::noded
