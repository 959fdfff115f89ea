// command_parts_test.cpp - pieces the commands share: the version line, the --iterate date line
// and loop, and job id lists.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "cli/commands.hpp"
#include "cli/iterate.hpp"
#include "cli/job_ids.hpp"
#include "common/error.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

std::string id_error(std::string_view list, std::string_view prefix) {
    try {
        parse_job_id_list(list, prefix);
    } catch (const ParseError &e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(CommandParts, VersionLine) {
    EXPECT_EQ(version_line(), "slurm 23.11.0\n"); // Slurm's form, which tools parse
}

TEST(CommandParts, DateLine) {
    setenv("TZ", "UTC", 1);
    tzset();
    EXPECT_EQ(date_line(1700000000), "Tue Nov 14 22:13:20 2023\n");
}

TEST(CommandParts, ShowEveryRunsOnceWithoutIterate) {
    int calls = 0;
    EXPECT_EQ(show_every(0, [&] { return ++calls, 7; }), 7);
    EXPECT_EQ(calls, 1);
}

TEST(CommandParts, ShowEveryStopsAtTheFirstFailure) {
    int calls = 0;
    // A failing first report ends the loop before any blank line or sleep.
    EXPECT_EQ(show_every(5, [&] { return ++calls, 1; }), 1);
    EXPECT_EQ(calls, 1);
}

TEST(CommandParts, JobIdLists) {
    EXPECT_EQ(parse_job_id_list("12", "x: "), (std::vector<uint32_t>{12}));
    EXPECT_EQ(parse_job_id_list("12, 13,,14 ", "x: "), (std::vector<uint32_t>{12, 13, 14}));
    EXPECT_EQ(id_error("12,abc", "Invalid job id: "), "Invalid job id: abc");
    EXPECT_EQ(id_error("0", "Invalid job id specified: "), "Invalid job id specified: 0");
    EXPECT_EQ(id_error(",", "Invalid job id: "), "Invalid job id: ,");
}
