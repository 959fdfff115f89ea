// pmi_server_test.cpp - the PMI-1 and PMI-2 server engine driven as MPICH's clients drive it:
// two nodes' servers, their fence exchanged here, requests and replies as bytes on the wire.
#include <gtest/gtest.h>

#include <deque>

#include "common/pmi_server.hpp"
#include "common/pmi_wire.hpp"

using namespace drover::pmi;

namespace {

// A step of size ranks on nodes, ranks placed by node_of; the fence is the host's allgather.
struct Step {
    std::vector<std::unique_ptr<Server>> nodes;
    std::map<uint32_t, std::string> replies; // rank -> bytes not yet read by the test
    std::vector<std::string> blobs;          // this fence's blob from each node that entered it
    std::vector<std::string> aborts;
    bool fence_fails = false;

    Step(const std::vector<uint32_t> &node_of, uint32_t n_nodes) {
        blobs.resize(n_nodes);
        for (uint32_t n = 0; n < n_nodes; ++n) {
            StepInfo info{"7.0", uint32_t(node_of.size()), {}, process_mapping(node_of), 0};
            for (uint32_t r = 0; r < node_of.size(); ++r)
                if (node_of[r] == n) info.local.push_back(r);
            Host host;
            host.send = [this](uint32_t r, std::string b) { replies[r] += b; };
            host.fence = [this, n](std::string blob) { entered(n, std::move(blob)); };
            host.abort = [this](uint32_t r, int code, std::string why) {
                aborts.push_back(std::to_string(r) + ":" + std::to_string(code) + ":" + why);
            };
            nodes.push_back(std::make_unique<Server>(info, host));
        }
    }
    std::size_t in_fence = 0;
    void entered(uint32_t n, std::string blob) {
        blobs[n] = std::move(blob);
        if (++in_fence < nodes.size()) return;
        std::string all;
        for (auto &b : blobs) all += b;
        if (fence_fails) all += "\x05";
        in_fence = 0;
        for (auto &s : nodes) s->fence_done(all);
    }
    // Everything rank has been sent since the last take.
    std::string take(uint32_t r) { return std::exchange(replies[r], {}); }
};

std::string v2(const std::string &body) {
    char len[8];
    std::snprintf(len, sizeof len, "%6zu", body.size());
    return std::string(len) + body;
}

} // namespace

TEST(PmiWire, ReadsV1LinesWithValuesHoldingEqualsAndSpaces) {
    Read r = read_v1("cmd=put kvsname=7.0 key=bc value=a=b$c\ncmd=get");
    ASSERT_EQ(r.kind, Read::request);
    EXPECT_EQ(r.cmd.name, "put");
    EXPECT_EQ(r.cmd.get("value"), "a=b$c");
    EXPECT_EQ(read_v1("cmd=get").kind, Read::incomplete);
    Read a = read_v1("cmd=abort exitcode=3 msg=rank 1 gave up\n");
    EXPECT_EQ(a.cmd.get("msg"), "rank 1 gave up");
    EXPECT_EQ(read_v1("garbage\n").kind, Read::malformed);
    EXPECT_EQ(read_v1(std::string(kRequestMax + 1, 'x')).kind, Read::malformed);
}

TEST(PmiWire, ReadsV2FramesEitherPaddingAndEscapedSemicolons) {
    Read r = read_v2(v2("cmd=kvs-put;key=k;value=a;;b;"));
    ASSERT_EQ(r.kind, Read::request);
    EXPECT_EQ(r.cmd.get("value"), "a;b");
    Read left = read_v2("14    cmd=kvs-fence;");
    ASSERT_EQ(left.kind, Read::request);
    EXPECT_EQ(left.cmd.name, "kvs-fence");
    EXPECT_EQ(read_v2("    40cmd=kvs").kind, Read::incomplete);
    EXPECT_EQ(read_v2("4 0   cmd=kvs-fence;").kind, Read::malformed);
    EXPECT_EQ(read_v2("999999" + std::string(10, 'x')).kind, Read::malformed);
    // Replies escape the same way.
    EXPECT_EQ(write_v2("x", {{"v", "a;b"}}), "13    cmd=x;v=a;;b;");
}

TEST(PmiServer, Pmi1PutFenceGetAcrossNodes) {
    Step s({0, 0, 1, 1}, 2);
    for (uint32_t r = 0; r < 4; ++r) {
        uint32_t n = r / 2;
        ASSERT_TRUE(s.nodes[n]->feed(r, "cmd=init pmi_version=1 pmi_subversion=1\n"));
        EXPECT_EQ(s.take(r), "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n");
        s.nodes[n]->feed(r, "cmd=get_maxes\ncmd=get_my_kvsname\n");
        EXPECT_EQ(s.take(r), "cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024\n"
                             "cmd=my_kvsname rc=0 kvsname=7.0\n");
        s.nodes[n]->feed(r, "cmd=put kvsname=7.0 key=card" + std::to_string(r) + " value=host" +
                                std::to_string(r) + "\n");
        EXPECT_EQ(s.take(r), "cmd=put_result rc=0\n");
    }
    // Nobody leaves the barrier until all four entered it.
    for (uint32_t r = 0; r < 3; ++r) s.nodes[r / 2]->feed(r, "cmd=barrier_in\n");
    for (uint32_t r = 0; r < 3; ++r) EXPECT_EQ(s.take(r), "");
    s.nodes[1]->feed(3, "cmd=barrier_in\n");
    for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(s.take(r), "cmd=barrier_out rc=0\n");
    s.nodes[0]->feed(0, "cmd=get kvsname=7.0 key=card3\ncmd=get kvsname=7.0 key=nope\n");
    EXPECT_EQ(s.take(0), "cmd=get_result rc=0 value=host3\n"
                         "cmd=get_result rc=-1 msg=key_nope_not_found\n");
    s.nodes[0]->feed(0, "cmd=get kvsname=7.0 key=PMI_process_mapping\n");
    EXPECT_EQ(s.take(0), "cmd=get_result rc=0 value=(vector,(0,2,2))\n");
    EXPECT_EQ(s.nodes[0]->fences(), 1u);
}

TEST(PmiServer, Pmi2FullinitKvsFenceAndAttributes) {
    Step s({0, 1}, 2);
    for (uint32_t r = 0; r < 2; ++r) {
        s.nodes[r]->feed(r, "cmd=init pmi_version=2 pmi_subversion=0\n");
        EXPECT_EQ(s.take(r), "cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n");
        s.nodes[r]->feed(r, v2("cmd=fullinit;pmirank=" + std::to_string(r) + ";"));
        Read got = read_v2(s.take(r));
        ASSERT_EQ(got.kind, Read::request);
        EXPECT_EQ(got.cmd.name, "fullinit-response");
        EXPECT_EQ(got.cmd.get("rank"), std::to_string(r));
        EXPECT_EQ(got.cmd.get("size"), "2");
        s.nodes[r]->feed(r, v2("cmd=kvs-put;key=k" + std::to_string(r) + ";value=v;;" +
                               std::to_string(r) + ";"));
        EXPECT_EQ(read_v2(s.take(r)).cmd.get("rc"), "0");
    }
    s.nodes[0]->feed(0, v2("cmd=kvs-fence;"));
    EXPECT_EQ(s.take(0), "");
    s.nodes[1]->feed(1, v2("cmd=kvs-fence;"));
    for (uint32_t r = 0; r < 2; ++r) EXPECT_EQ(read_v2(s.take(r)).cmd.name, "kvs-fence-response");
    s.nodes[0]->feed(0, v2("cmd=kvs-get;jobid=7.0;srcid=-1;key=k1;"));
    Read got = read_v2(s.take(0));
    EXPECT_EQ(got.cmd.get("found"), "TRUE");
    EXPECT_EQ(got.cmd.get("value"), "v;1");
    s.nodes[1]->feed(1, v2("cmd=info-getjobattr;key=PMI_process_mapping;"));
    EXPECT_EQ(read_v2(s.take(1)).cmd.get("value"), "(vector,(0,2,1))");
    s.nodes[1]->feed(1, v2("cmd=job-getid;"));
    EXPECT_EQ(read_v2(s.take(1)).cmd.get("jobid"), "7.0");
}

TEST(PmiServer, NodeAttributeWaitIsAnsweredByAnotherTasksPut) {
    Step s({0, 0}, 1);
    for (uint32_t r = 0; r < 2; ++r)
        s.nodes[0]->feed(r, "cmd=init pmi_version=2 pmi_subversion=0\n");
    s.take(0), s.take(1);
    s.nodes[0]->feed(1, v2("cmd=info-getnodeattr;key=shm;wait=FALSE;"));
    EXPECT_EQ(read_v2(s.take(1)).cmd.get("found"), "FALSE");
    s.nodes[0]->feed(1, v2("cmd=info-getnodeattr;key=shm;wait=TRUE;"));
    EXPECT_EQ(s.take(1), "");
    s.nodes[0]->feed(0, v2("cmd=info-putnodeattr;key=shm;value=/dev/shm/x;"));
    EXPECT_EQ(read_v2(s.take(0)).cmd.name, "info-putnodeattr-response");
    Read got = read_v2(s.take(1));
    EXPECT_EQ(got.cmd.name, "info-getnodeattr-response");
    EXPECT_EQ(got.cmd.get("value"), "/dev/shm/x");
}

TEST(PmiServer, AbortAndEarlyCloseEndTheStep) {
    Step s({0, 0, 0}, 1);
    s.nodes[0]->feed(0, "cmd=init pmi_version=1 pmi_subversion=1\ncmd=abort exitcode=7\n");
    s.nodes[0]->closed(0); // its channel closing after the abort is no second one
    s.nodes[0]->feed(1, "cmd=init pmi_version=1 pmi_subversion=1\n");
    s.nodes[0]->closed(1);
    s.nodes[0]->closed(2); // never spoke PMI: a task that is not an MPI program
    EXPECT_EQ(s.aborts, (std::vector<std::string>{"0:7:", "1:-1:"}));
}

TEST(PmiServer, ATaskThatIsNoMpiProgramDoesNotHoldUpTheFence) {
    Step s({0, 0}, 1); // rank 1 never speaks PMI, then ends
    s.nodes[0]->feed(0, "cmd=init pmi_version=1 pmi_subversion=1\ncmd=barrier_in\n");
    EXPECT_EQ(s.take(0), "cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n");
    s.nodes[0]->closed(1);
    EXPECT_EQ(s.take(0), "cmd=barrier_out rc=0\n");
    EXPECT_TRUE(s.aborts.empty());
}

TEST(PmiServer, GarbageIsRefusedWithAnErrorAndTheChannelClosed) {
    Step s({0}, 1);
    EXPECT_FALSE(s.nodes[0]->feed(0, "hello there\n"));
    EXPECT_NE(s.take(0).find("rc=-1"), std::string::npos);
    EXPECT_FALSE(s.nodes[0]->feed(5, "cmd=init\n")); // not a rank of this node
    Step t({0}, 1);
    t.nodes[0]->feed(0, "cmd=init pmi_version=1 pmi_subversion=1\n");
    t.take(0);
    t.nodes[0]->feed(0, "cmd=put kvsname=7.0 key=" + std::string(65, 'k') + " value=v\n");
    EXPECT_EQ(t.take(0), "cmd=put_result rc=-1 msg=key_longer_than_64_bytes\n");
    // A PMI-1 value with a blank would read back as more attributes.
    t.nodes[0]->feed(0, "cmd=put kvsname=7.0 key=k value=a b\n");
    EXPECT_EQ(t.take(0), "cmd=put_result rc=-1 msg=value_holds_a_blank\n");
    t.nodes[0]->feed(0, "cmd=frobnicate\n");
    EXPECT_EQ(t.take(0), "cmd=frobnicate_result rc=-1 msg=unknown_command_frobnicate\n");
    t.nodes[0]->feed(0, "cmd=init pmi_version=0 pmi_subversion=9\n");
    EXPECT_NE(t.take(0).find("rc=-1"), std::string::npos);
}

TEST(PmiServer, AFenceWhoseExchangeIsCorruptFailsItsTasks) {
    Step s({0, 1}, 2);
    s.fence_fails = true;
    s.nodes[0]->feed(0, "cmd=init pmi_version=1 pmi_subversion=1\ncmd=barrier_in\n");
    s.nodes[1]->feed(1, "cmd=init pmi_version=1 pmi_subversion=1\ncmd=barrier_in\n");
    EXPECT_NE(s.take(0).find("cmd=barrier_out rc=-1"), std::string::npos);
    EXPECT_EQ(s.nodes[0]->fences(), 0u);
}

TEST(PmiMapping, BlockCyclicAndUneven) {
    EXPECT_EQ(process_mapping({0, 0, 1, 1, 2, 2, 3, 3}), "(vector,(0,4,2))");
    EXPECT_EQ(process_mapping({0, 1, 2, 3, 0, 1, 2, 3}), "(vector,(0,4,1))");
    EXPECT_EQ(process_mapping({0, 0, 0, 1, 1, 2}), "(vector,(0,1,3),(1,1,2),(2,1,1))");
    EXPECT_EQ(process_mapping({0}), "(vector,(0,1,1))");
}

TEST(PmiKvs, EncodeDecodeRoundTripAndRefusesTruncation) {
    std::map<std::string, std::string> in{{"a", "1"}, {"b", std::string(300, 'x')}}, out;
    std::string blob = encode_kvs(in);
    EXPECT_TRUE(decode_kvs(blob + blob, out));
    EXPECT_EQ(out, in);
    EXPECT_FALSE(decode_kvs(blob.substr(0, blob.size() - 1), out));
}
