// exit_codes_test.cpp - RequeueExit and RequeueExitHold: the exit code lists slurm.conf takes,
// what the controller reads from them, and the refusal of a list that is not one.
#include <gtest/gtest.h>

#include "common/config.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"

namespace drover {
namespace {

TEST(ExitCodes, ListsAsSlurmConfWritesThem) {
    ExitCodeSet s = parse_exit_code_list("1-3,18");
    EXPECT_EQ(s.count(), 4u);
    EXPECT_TRUE(s.test(1) && s.test(2) && s.test(3) && s.test(18));
    EXPECT_FALSE(s.test(0) || s.test(4));
    EXPECT_TRUE(parse_exit_code_list("0,255").test(255));
    EXPECT_TRUE(parse_exit_code_list("").none());
    EXPECT_THROW(parse_exit_code_list("256"), ParseError);
    EXPECT_THROW(parse_exit_code_list("9-3"), ParseError);
    EXPECT_THROW(parse_exit_code_list("one"), ParseError);
    EXPECT_THROW(parse_exit_code_list("1,,2"), ParseError);
}

TEST(ExitCodes, TheControllerReadsThemFromSlurmConf) {
    Config c = parse_config("RequeueExit=3\nRequeueExitHold=4,10-11\n", "slurm.conf");
    EXPECT_EQ(configured_exit_codes(c, "requeueexit"), parse_exit_code_list("3"));
    EXPECT_EQ(configured_exit_codes(c, "requeueexithold").count(), 3u);
    EXPECT_TRUE(configured_exit_codes(parse_config("", "slurm.conf"), "requeueexit").none());
}

TEST(ExitCodes, ABadListIsRefusedWithWhereAndWhat) {
    try {
        parse_config("ClusterName=c\nRequeueExitHold=4,300\n", "slurm.conf");
        ADD_FAILURE() << "exit code 300 is refused";
    } catch (const ParseError &e) {
        std::string what = e.what();
        EXPECT_NE(what.find("slurm.conf:2"), std::string::npos) << what;
        EXPECT_NE(what.find("RequeueExitHold"), std::string::npos) << what;
        EXPECT_NE(what.find("over 255"), std::string::npos) << what;
    }
}

} // namespace
} // namespace drover
