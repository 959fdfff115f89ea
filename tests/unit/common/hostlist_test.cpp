// hostlist_test.cpp - hostlist_expand, hostlist_compress and hostlist_ranged, table-driven.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/hostlist.hpp"

namespace drover {
namespace {

using Names = std::vector<std::string>;

struct ExpandCase {
    std::string expr;
    Names want;
};

TEST(HostlistExpand, Table) {
    const ExpandCase cases[] = {
        {"", {}},
        {"   ", {}},
        {"a", {"a"}},
        {"n1", {"n1"}},
        {"lx[0001-0002,7]", {"lx0001", "lx0002", "lx0007"}},
        {"linux[1-3,6]", {"linux1", "linux2", "linux3", "linux6"}},
        {"n[08-10]", {"n08", "n09", "n10"}},
        {"n[8-10]", {"n8", "n9", "n10"}},
        {"n[1-2,010]", {"n1", "n2", "n010"}},
        {"a,b[1-3],c", {"a", "b1", "b2", "b3", "c"}},
        {"a , b[1-2] ,c", {"a", "b1", "b2", "c"}},
        {"a b", {"a", "b"}},
        {"n[1, 3]", {"n1", "n3"}},
        {"rack[1-2]-n[01-03]",
         {"rack1-n01", "rack1-n02", "rack1-n03", "rack2-n01", "rack2-n02", "rack2-n03"}},
        {"[1-3]", {"1", "2", "3"}},
        {"n[5]", {"n5"}},
        {"n[0-0]", {"n0"}},
        {"x[1-2]y", {"x1y", "x2y"}},
        {"n[1,1]", {"n1", "n1"}},
    };
    for (const auto &c : cases) EXPECT_EQ(hostlist_expand(c.expr), c.want) << c.expr;
}

TEST(HostlistExpand, Errors) {
    const char *cases[] = {
        "n[1-2",
        "n1-2]",
        "n[[1]]",
        "n[3-1]",
        "n[a-b]",
        "n[]",
        "n[1-]",
        "n[-1]",
        "n[1,,2]",
        "n[1-2-3]",
        "a,,b",
        "a,",
        ",a",
        ",",
        "n[1-2]]",
        "n[1]x[",
        "n[99999999999999999999]",
        "n[0-2000000]",
        "a[1-1024][1-1025]",
    };
    for (const char *c : cases) EXPECT_THROW(hostlist_expand(c), ParseError) << c;
}

TEST(HostlistExpand, LimitIsCheckedBeforeAllocating) {
    // 10^18 names would exhaust memory if the count were not checked first.
    EXPECT_THROW(hostlist_expand("n[0-999999999999999999]"), ParseError);
    EXPECT_THROW(hostlist_expand("a[0-999999][0-999999][0-999999]"), ParseError);
    EXPECT_EQ(hostlist_expand("n[1-1048576]").size(), kHostlistMax);
}

TEST(HostlistExpand, CallerLimit) {
    EXPECT_EQ(hostlist_expand("n[1-3]", 3).size(), 3u);
    EXPECT_THROW(hostlist_expand("n[1-3]", 2), ParseError);
    EXPECT_THROW(hostlist_expand("a,b,c", 2), ParseError);
    EXPECT_THROW(hostlist_expand("a[1-2]b[1-2]", 3), ParseError);
    EXPECT_TRUE(hostlist_expand("", 0).empty());
}

TEST(HostlistExpand, ErrorNamesPosition) {
    try {
        hostlist_expand("n[3-1]");
        FAIL() << "no error";
    } catch (const ParseError &e) {
        EXPECT_NE(std::string(e.what()).find("position"), std::string::npos) << e.what();
    }
}

struct CompressCase {
    Names names;
    std::string want;
};

TEST(HostlistCompress, Table) {
    const CompressCase cases[] = {
        {{}, ""},
        {{"a"}, "a"},
        {{"n01", "n02", "n03", "n05"}, "n[01-03,05]"},
        {{"n1", "n2", "n3", "m5"}, "n[1-3],m5"},
        {{"n1", "m5", "n2"}, "n[1-2],m5"},
        {{"n3", "n1", "n2"}, "n[1-3]"},
        {{"n01", "n1"}, "n01,n1"},
        {{"n9", "n10", "n11"}, "n[9-11]"},
        {{"a", "b", "c"}, "a,b,c"},
        {{"rack1-n01", "rack1-n02", "rack2-n01"}, "rack1-n[01-02],rack2-n01"},
        {{"n007", "n009", "n008"}, "n[007-009]"},
        {{"10", "11"}, "[10-11]"},
        {{"n1", "n1"}, "n[1,1]"},
        // Past the padding's digits a number needs no zeros: still one bracket, as in Slurm.
        {{"n08", "n09", "n10", "n11", "n12"}, "n[08-12]"},
        {{"n098", "n099", "n100", "n101"}, "n[098-101]"},
        {{"n5", "n08", "n10"}, "n5,n[08,10]"},
        {{"n01", "n001", "n10"}, "n01,n001,n10"}, // two paddings: each as it is
    };
    for (const auto &c : cases) EXPECT_EQ(hostlist_compress(c.names), c.want);
}

TEST(HostlistCompress, RoundTrips) {
    const Names cases[] = {
        {"lx0001", "lx0002", "lx0007"},       {"n0", "n00", "n000", "n1", "n01"},
        {"a-1", "a-2", "b", "c3d", "c3d4"},   {"n99999999999999999999", "n1"},
        {"x7", "x07", "x007", "x10", "x010"},
    };
    for (const auto &names : cases) {
        Names got = hostlist_expand(hostlist_compress(names));
        Names want = names;
        std::sort(got.begin(), got.end());
        std::sort(want.begin(), want.end());
        EXPECT_EQ(got, want) << hostlist_compress(names);
    }
}

// Slurm's examples (scontrol(1), hostlist and hostlistsorted), and the order kept otherwise.
TEST(HostlistRanged, AsGivenAndSorted) {
    EXPECT_EQ(hostlist_ranged({"tux2", "tux1", "tux2"}, false), "tux[2,1-2]");
    EXPECT_EQ(hostlist_ranged({"tux2", "tux1", "tux2"}, true), "tux[1-2,2]");
    EXPECT_EQ(hostlist_ranged({"a1", "b1", "a2"}, false), "a1,b1,a2");
    EXPECT_EQ(hostlist_ranged({"a1", "b1", "a2"}, true), "a[1-2],b1");
    EXPECT_EQ(hostlist_ranged({"n01", "n02", "n1", "login"}, false), "n[01-02],n1,login");
    EXPECT_EQ(hostlist_ranged({"n9", "n10", "n11"}, false), "n[9-11]");
    EXPECT_EQ(hostlist_ranged({"n08", "n09", "n10"}, false), "n[08-10]");
    EXPECT_EQ(hostlist_ranged({"n10", "n08", "n09"}, true), "n[08-10]");
    EXPECT_EQ(hostlist_ranged({"n3"}, true), "n3");
    EXPECT_EQ(hostlist_ranged({}, false), "");
    for (bool sorted : {false, true}) {
        Names names{"lx0007", "lx0001", "x", "lx0002", "n1"};
        Names got = hostlist_expand(hostlist_ranged(names, sorted));
        std::sort(got.begin(), got.end());
        std::sort(names.begin(), names.end());
        EXPECT_EQ(got, names);
    }
}

} // namespace
} // namespace drover
