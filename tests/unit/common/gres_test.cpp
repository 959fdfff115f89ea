// gres_test.cpp - gres.conf parsing, Gres= and --gres strings, index lists, nvidia detection.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

#include "common/error.hpp"
#include "common/gres.hpp"

namespace drover {
namespace {

using Strings = std::vector<std::string>;

std::string error_of(const std::function<void()> &fn) {
    try {
        fn();
    } catch (const ParseError &e) {
        return e.what();
    }
    return "";
}

TEST(GresConf, NodeLinesExpandNodesAndFiles) {
    GresConf c = parse_gres_conf(
        "# GPUs\n"
        "NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-3] Cores=0-7  # four each\n"
        "nodename=gpu03 NAME=gpu file=/dev/nvidia0\n"
        "Name=nic Count=2\n");
    ASSERT_EQ(c.entries.size(), 3u);
    EXPECT_EQ(c.entries[0].nodes, (Strings{"gpu01", "gpu02"}));
    EXPECT_EQ(c.entries[0].device.type, "a100");
    EXPECT_EQ(c.entries[0].device.count, 4u);
    EXPECT_EQ(c.entries[0].device.files,
              (Strings{"/dev/nvidia0", "/dev/nvidia1", "/dev/nvidia2", "/dev/nvidia3"}));
    EXPECT_EQ(c.entries[0].device.cores, "0-7");
    EXPECT_EQ(c.entries[0].line, 2u);
    EXPECT_TRUE(c.entries[2].nodes.empty());

    auto g1 = gres_for_node(c, "gpu01");
    ASSERT_EQ(g1.size(), 2u);
    EXPECT_EQ(g1[0].name, "gpu");
    EXPECT_EQ(g1[1].name, "nic");
    EXPECT_EQ(g1[1].count, 2u);
    EXPECT_TRUE(g1[1].files.empty());
    auto g3 = gres_for_node(c, "gpu03");
    ASSERT_EQ(g3.size(), 2u);
    EXPECT_EQ(g3[0].count, 1u);
    EXPECT_EQ(g3[0].type, "");
    EXPECT_EQ(gres_for_node(c, "other").size(), 1u);
}

TEST(GresConf, CountsContinuationsAndQuotes) {
    GresConf c = parse_gres_conf(
        "Name=bandwidth Count=4G\nNodeName=a \\\n  Name=gpu File=\"/dev/nvidia[0-1]\" Count=2\n");
    ASSERT_EQ(c.entries.size(), 2u);
    EXPECT_EQ(c.entries[0].device.count, 4ull << 30);
    EXPECT_EQ(c.entries[1].nodes, (Strings{"a"}));
    EXPECT_EQ(c.entries[1].device.count, 2u);
    EXPECT_EQ(c.entries[1].line, 2u);
}

TEST(GresConf, AutoDetect) {
    GresConf c = parse_gres_conf(
        "AutoDetect=NVML\nNodeName=n2 AutoDetect=off\nNodeName=n3 AutoDetect=rsmi\n");
    EXPECT_TRUE(c.entries.empty());
    EXPECT_EQ(gres_autodetect_mode(c, "n1"), "nvml");
    EXPECT_EQ(gres_autodetect_mode(c, "n2"), "off");
    EXPECT_EQ(gres_autodetect_mode(c, "n3"), "off");
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("gres.conf:3: AutoDetect=rsmi"), std::string::npos);
    EXPECT_EQ(gres_autodetect_mode(parse_gres_conf(""), "n1"), "off");
}

TEST(GresConf, BadLinesNameTheLine) {
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu\nCount=2\n"); }),
              "gres.conf:2: a record needs Name=");
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu Bogus=1", "/etc/gres.conf"); }),
              "/etc/gres.conf:1: unknown key 'bogus'");
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu File=/dev/nvidia[0-1] Count=3"); }),
              "gres.conf:1: Count=3 but File names 2 file(s)");
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu Count=x"); }), "gres.conf:1: bad Count 'x'");
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu Cores=a-b"); }),
              "gres.conf:1: bad Cores 'a-b'");
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu junk"); }),
              "gres.conf:1: expected Key=Value, found 'junk'");
    EXPECT_EQ(error_of([] { parse_gres_conf("Name=gpu File=\"x"); }),
              "gres.conf:1: unbalanced '\"'");
    EXPECT_NE(error_of([] {
                  parse_gres_conf("\n\nNodeName=n[3-1] Name=gpu");
              }).find("gres.conf:3: bad NodeName"),
              std::string::npos);
    EXPECT_NE(error_of([] {
                  parse_gres_conf("Name=gpu File=/dev/nvidia[0-");
              }).find("gres.conf:1: bad File"),
              std::string::npos);
    EXPECT_EQ(error_of([] { parse_gres_conf("AutoDetect=a/b"); }),
              "gres.conf:1: bad AutoDetect 'a/b'");
}

TEST(GresConf, LoadReportsMissingFile) {
    EXPECT_NE(error_of([] {
                  load_gres_conf("/nonexistent/gres.conf");
              }).find("/nonexistent/gres.conf: cannot read"),
              std::string::npos);
}

TEST(GresConf, DetectsNvidiaDeviceFiles) {
    char tmpl[] = "/tmp/drover-gres-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;
    for (const char *f : {"nvidia0", "nvidia10", "nvidia2", "nvidiactl", "nvidia-uvm", "nvidia1x"})
        std::ofstream(dir + "/" + f) << "";
    auto found = gres_detect_nvidia(dir);
    ASSERT_EQ(found.size(), 3u);
    EXPECT_EQ(found[0].files, (Strings{dir + "/nvidia0"}));
    EXPECT_EQ(found[1].files, (Strings{dir + "/nvidia2"}));
    EXPECT_EQ(found[2].files, (Strings{dir + "/nvidia10"}));
    EXPECT_EQ(found[0].name, "gpu");

    GresConf c = parse_gres_conf("AutoDetect=nvidia\nNodeName=me Name=gpu Type=v100 File=" + dir +
                                 "/nvidia0\n");
    auto mine = gres_for_this_node(c, "me", dir);
    ASSERT_EQ(mine.size(), 3u);
    EXPECT_EQ(mine[0].type, "v100");
    EXPECT_EQ(mine[1].files, (Strings{dir + "/nvidia2"}));
    GresConf off = parse_gres_conf("Name=gpu Count=1\n");
    EXPECT_EQ(gres_for_this_node(off, "me", dir).size(), 1u);
    EXPECT_TRUE(gres_detect_nvidia(dir + "/missing").empty());
    for (const char *f : {"nvidia0", "nvidia10", "nvidia2", "nvidiactl", "nvidia-uvm", "nvidia1x"})
        ::unlink((dir + "/" + f).c_str());
    ::rmdir(dir.c_str());
}

TEST(GresStrings, NodeGres) {
    using V = std::vector<GresCount>;
    EXPECT_EQ(parse_node_gres("gpu:4"), (V{{"gpu", "", 4, ""}}));
    EXPECT_EQ(parse_node_gres("gpu:a100:2,nic:1"), (V{{"gpu", "a100", 2, ""}, {"nic", "", 1, ""}}));
    EXPECT_EQ(parse_node_gres("gpu:a100:2(S:0-1),gpu:v100:2(S:0,1)"),
              (V{{"gpu", "a100", 2, "S:0-1"}, {"gpu", "v100", 2, "S:0,1"}}));
    EXPECT_EQ(parse_node_gres("gpu"), (V{{"gpu", "", 1, ""}}));
    EXPECT_EQ(parse_node_gres("gpu:a100"), (V{{"gpu", "a100", 1, ""}}));
    EXPECT_EQ(parse_node_gres("bw:2K"), (V{{"bw", "", 2048, ""}}));
    EXPECT_EQ(parse_node_gres("gpu:1g.10gb:7"), (V{{"gpu", "1g.10gb", 7, ""}}));
    EXPECT_TRUE(parse_node_gres("").empty());
    EXPECT_TRUE(parse_node_gres("NONE").empty());
    EXPECT_EQ(gres_total(parse_node_gres("gpu:a:2,gpu:b:3,nic:1"), "gpu"), 5u);
    EXPECT_EQ(format_gres(parse_node_gres("gpu:a100:2(S:0-1),nic:1")), "gpu:a100:2(S:0-1),nic:1");

    EXPECT_EQ(error_of([] { parse_node_gres("gpu:2,"); }), "bad Gres 'gpu:2,': empty item");
    EXPECT_EQ(error_of([] { parse_node_gres("gpu:a:b:c"); }),
              "bad Gres 'gpu:a:b:c': too many ':' in 'gpu:a:b:c'");
    EXPECT_EQ(error_of([] { parse_node_gres("gpu:a100:x"); }),
              "bad Gres 'gpu:a100:x': bad count 'x'");
    EXPECT_EQ(error_of([] { parse_node_gres("gpu:2(S:0"); }),
              "bad Gres 'gpu:2(S:0': unbalanced parentheses");
    EXPECT_EQ(error_of([] { parse_node_gres(":2"); }), "bad Gres ':2': bad name ''");
    EXPECT_EQ(error_of([] { parse_node_gres("gpu:99999999999999999999"); }),
              "bad Gres 'gpu:99999999999999999999': bad type or count '99999999999999999999'");
}

TEST(GresStrings, JobRequest) {
    using V = std::vector<GresCount>;
    EXPECT_EQ(parse_gres_request("gpu:2"), (V{{"gpu", "", 2, ""}}));
    EXPECT_EQ(parse_gres_request("gpu:a100:1,nic:1"),
              (V{{"gpu", "a100", 1, ""}, {"nic", "", 1, ""}}));
    EXPECT_EQ(parse_gres_request("gres/gpu:3"), (V{{"gpu", "", 3, ""}}));
    EXPECT_EQ(parse_gres_request("gpu"), (V{{"gpu", "", 1, ""}}));
    EXPECT_EQ(parse_gres_request("gpu:0,nic"), (V{{"nic", "", 1, ""}}));
    EXPECT_TRUE(parse_gres_request("none").empty());
    EXPECT_EQ(error_of([] { parse_gres_request("gpu:2(S:0)"); }),
              "invalid --gres 'gpu:2(S:0)': '(' is not allowed here");
    EXPECT_EQ(error_of([] { parse_gres_request("gpu::2"); }),
              "invalid --gres 'gpu::2': bad type ''");
    EXPECT_EQ(error_of([] { parse_gres_request("g pu"); }),
              "invalid --gres 'g pu': bad name 'g pu'");
    EXPECT_EQ(error_of([] { parse_gres_request(",gpu"); }), "invalid --gres ',gpu': empty item");
}

// A signed or too large count is refused, never read as a type; a zero one is dropped (Slurm
// ignores it too). MIG-style types that start with a digit stay types.
TEST(GresStrings, JobRequestCounts) {
    using V = std::vector<GresCount>;
    EXPECT_EQ(error_of([] { parse_gres_request("gpu:-1"); }),
              "invalid --gres 'gpu:-1': bad type or count '-1'");
    EXPECT_EQ(error_of([] { parse_gres_request("gpu:+2"); }),
              "invalid --gres 'gpu:+2': bad type or count '+2'");
    EXPECT_EQ(error_of([] { parse_gres_request("gpu:-0"); }),
              "invalid --gres 'gpu:-0': bad type or count '-0'");
    EXPECT_EQ(error_of([] { parse_gres_request("gpu:a100:-1"); }),
              "invalid --gres 'gpu:a100:-1': bad count '-1'");
    EXPECT_EQ(error_of([] { parse_gres_request("gpu:1x"); }),
              "invalid --gres 'gpu:1x': bad type or count '1x'");
    EXPECT_FALSE(valid_gres_request("gpu:18446744073709551616")); // 2^64
    EXPECT_FALSE(valid_gres_request("gpu:18446744073709551615")); // INFINITE64
    EXPECT_FALSE(valid_gres_request("gpu:18446744073709551614")); // NO_VAL64
    EXPECT_FALSE(valid_gres_request("gpu:16384P"));               // 2^64 through a unit
    EXPECT_TRUE(valid_gres_request("gpu:18446744073709551613"));
    EXPECT_FALSE(valid_gres_request("gpu:-1,nic:1"));
    EXPECT_TRUE(valid_gres_request("gpu:0"));
    EXPECT_TRUE(parse_gres_request("gpu:0").empty());
    EXPECT_EQ(parse_gres_request("gpu:1g.5gb:2"), (V{{"gpu", "1g.5gb", 2, ""}}));
    EXPECT_EQ(parse_gres_request("gpu:1g.5gb"), (V{{"gpu", "1g.5gb", 1, ""}}));
    EXPECT_STREQ(kInvalidGres, "Invalid generic resource (gres) specification");
}

TEST(GresStrings, IndexLists) {
    EXPECT_EQ(format_index_list({}), "");
    EXPECT_EQ(format_index_list({3, 0, 1}), "0-1,3");
    EXPECT_EQ(format_index_list({5}), "5");
    EXPECT_EQ(format_index_list({0, 1, 2, 3, 8, 10, 11, 1}), "0-3,8,10-11");
    EXPECT_EQ(parse_index_list("0-1,3"), (std::vector<uint32_t>{0, 1, 3}));
    EXPECT_TRUE(parse_index_list("").empty());
    EXPECT_EQ(error_of([] { parse_index_list("3-1"); }),
              "bad index list '3-1': range ends before it starts");
    EXPECT_EQ(error_of([] { parse_index_list("1,,2"); }), "bad index list '1,,2': not a number");
}

TEST(GresStrings, HeldGresTotalsAndTres) {
    auto held = parse_held_gres("gpu:0,2,nic:1-2");
    ASSERT_EQ(held.size(), 2u);
    EXPECT_EQ(held[0].name, "gpu");
    EXPECT_EQ(held[0].indexes, (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(held[1].indexes, (std::vector<uint32_t>{1, 2}));
    // Non-contiguous indexes count whole ("gpu:0,2" is two GPUs, not one).
    EXPECT_EQ(held_gres_totals({"gpu:0,2", "gpu:1", "nic:0"}), "gpu:3,nic:1");
    EXPECT_EQ(held_gres_totals({"", "gpu:2"}), "gpu:1");
    EXPECT_EQ(held_gres_totals({}), "");
    EXPECT_EQ(gres_as_tres("gpu:3,nic:1"), "gres/gpu=3,gres/nic=1");
    EXPECT_EQ(gres_as_tres(""), "");
    EXPECT_EQ(gpu_indexes("gpu:0,2,nic:1"), "0,2");
    EXPECT_EQ(gpu_index_list("gpu:3,0-1,nic:0"), (std::vector<uint32_t>{0, 1, 3}));
}

} // namespace
} // namespace drover
