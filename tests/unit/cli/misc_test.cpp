// misc_test.cpp - the option parser, JSON writing, scancel arguments and small text helpers.
#include <limits>

#include <gtest/gtest.h>

#include "cli/json_records.hpp"
#include "common/json_writer.hpp"
#include "cli/options.hpp"
#include "cli/scancel_args.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "fixtures.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

enum { kA, kB, kLong, kOpt, kLongAlias };
constexpr OptSpec kSpecs[] = {
    {kA, 'a', "alpha", Arg::none},          {kB, 'b', "beta", Arg::required},
    {kLong, 0, "beta-long", Arg::none},     {kOpt, 'o', "opt", Arg::optional},
    {kLongAlias, 0, "alphabet", Arg::none},
};

ParsedArgs parse(std::vector<std::string> args, bool stop = false) {
    return parse_options(args, kSpecs, stop);
}

std::string usage_error(std::vector<std::string> args) {
    try {
        parse(std::move(args));
    } catch (const UsageError &e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(Options, ShortLongAndClusters) {
    ParsedArgs p = parse({"-ab", "x", "--beta=y", "--beta", "z", "-bw", "file", "--opt", "-oV"});
    ASSERT_EQ(p.opts.size(), 7u);
    EXPECT_EQ(p.opts[0].id, kA);
    EXPECT_EQ(*p.opts[1].value, "x");
    EXPECT_EQ(*p.opts[2].value, "y");
    EXPECT_EQ(*p.opts[3].value, "z");
    EXPECT_EQ(*p.opts[4].value, "w");
    EXPECT_EQ(p.opts[4].spelled, "-b");
    EXPECT_FALSE(p.opts[5].value);    // a long optional argument needs '='
    EXPECT_EQ(*p.opts[6].value, "V"); // a short one must be attached
    EXPECT_EQ(p.positionals, (std::vector<std::string>{"file"}));
}

TEST(Options, PrefixesAndErrors) {
    EXPECT_EQ(usage_error({"--alp"}),
              "option '--alp' is ambiguous; possibilities: '--alpha' '--alphabet'");
    EXPECT_EQ(parse({"--alpha"}).opts[0].id, kA); // exact beats prefix
    EXPECT_EQ(parse({"--beta-l"}).opts[0].id, kLong);
    EXPECT_EQ(usage_error({"--gamma"}), "unrecognized option '--gamma'");
    EXPECT_EQ(usage_error({"--gamma=1"}), "unrecognized option '--gamma=1'");
    EXPECT_EQ(usage_error({"-z"}), "invalid option -- 'z'");
    EXPECT_EQ(usage_error({"-b"}), "option requires an argument -- 'b'");
    EXPECT_EQ(usage_error({"--beta"}), "option '--beta' requires an argument");
    EXPECT_EQ(usage_error({"--alpha=1"}), "option '--alpha' doesn't allow an argument");
}

TEST(Options, PositionalsStopOrPermute) {
    ParsedArgs stop = parse({"-a", "script.sh", "-b", "x"}, true);
    EXPECT_EQ(stop.opts.size(), 1u);
    EXPECT_EQ(stop.positionals, (std::vector<std::string>{"script.sh", "-b", "x"}));
    ParsedArgs perm = parse({"12", "-a", "13"}, false);
    EXPECT_EQ(perm.opts.size(), 1u);
    EXPECT_EQ(perm.positionals, (std::vector<std::string>{"12", "13"}));
    ParsedArgs dashdash = parse({"--", "-a"}, false);
    EXPECT_TRUE(dashdash.opts.empty());
    EXPECT_EQ(dashdash.positionals, (std::vector<std::string>{"-a"}));
}

TEST(Json, EscapesAndShape) {
    EXPECT_EQ(json_escape("a\"b\\c\n\t\x01"), "a\\\"b\\\\c\\n\\t\\u0001");
    EXPECT_EQ(json_escape("caf\xc3\xa9"), "caf\xc3\xa9");
    EXPECT_EQ(json_escape("bad\xff"), "bad\\ufffd");
    JsonWriter w;
    w.begin_object()
        .kv("name", "x")
        .kv_num("n", -3)
        .key("list")
        .begin_array()
        .str("a")
        .unum(2)
        .end_array();
    w.key("empty").begin_object().end_object().kv_number_obj("t", 5, true, false).end_object();
    EXPECT_EQ(w.finish(), "{\n"
                          "  \"name\": \"x\",\n"
                          "  \"n\": -3,\n"
                          "  \"list\": [\n"
                          "    \"a\",\n"
                          "    2\n"
                          "  ],\n"
                          "  \"empty\": {},\n"
                          "  \"t\": {\n"
                          "    \"set\": true,\n"
                          "    \"infinite\": false,\n"
                          "    \"number\": 5\n"
                          "  }\n"
                          "}\n");
}

TEST(Json, RealNumbersRoundTripAndNonFiniteIsNull) {
    JsonWriter w;
    w.begin_array()
        .real(0.5)
        .real(1.0 / 3)
        .real(std::numeric_limits<double>::infinity())
        .end_array();
    EXPECT_EQ(w.finish(), "[\n  0.5,\n  0.33333333333333331,\n  null\n]\n");
}

TEST(Json, JobsDocument) {
    test::Records rec;
    test::Job j;
    j.id = 42;
    j.name = "quote\"name";
    j.state = DROVER_JOB_RUNNING;
    j.start = 100;
    j.nodes = "n1";
    auto jobs = rec.jobs({j});
    std::string doc = jobs_json(jobs, 200);
    EXPECT_NE(doc.find("\"job_id\": 42,"), std::string::npos);
    EXPECT_NE(doc.find("\"name\": \"quote\\\"name\","), std::string::npos);
    EXPECT_NE(doc.find("\"job_state\": [\n        \"RUNNING\"\n      ],"), std::string::npos);
    EXPECT_NE(doc.find("\"nodes\": \"n1\","), std::string::npos);
    EXPECT_NE(doc.find("\"user_name\": \"alice\""), std::string::npos);
}

TEST(Scancel, Args) {
    ScancelArgs a =
        parse_scancel_args(std::vector<std::string>{"12", "13,14", "-s", "SIGUSR1", "--batch"});
    ASSERT_EQ(a.jobs.size(), 3u);
    EXPECT_EQ(a.jobs[0].job_id, 12u);
    EXPECT_EQ(a.jobs[2].text, "14");
    EXPECT_EQ(*a.signal, 10);
    EXPECT_TRUE(a.batch);
    EXPECT_FALSE(a.has_filter());
    a = parse_scancel_args(std::vector<std::string>{"-u", "alice", "-t", "PENDING", "-n", "x"});
    EXPECT_TRUE(a.has_filter());
    EXPECT_EQ(a.states, (std::vector<uint32_t>{DROVER_JOB_PENDING}));
    try {
        parse_scancel_args(std::vector<std::string>{"abc"});
        FAIL();
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "Invalid job id abc");
    }
    EXPECT_THROW(parse_scancel_args(std::vector<std::string>{"-s", "NOPE", "1"}), ParseError);
    EXPECT_THROW(parse_scancel_args(std::vector<std::string>{"-t", "COMPLETED"}), ParseError);
    EXPECT_EQ(parse_signal("kill"), 9);
    EXPECT_EQ(parse_signal("15"), 15);
    EXPECT_FALSE(parse_signal("0"));
}

TEST(Text, Helpers) {
    EXPECT_EQ(split("a,,b", ','), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(split("a,,b", ',', true), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_EQ(parse_u32("4294967295"), 4294967295u);
    EXPECT_FALSE(parse_u32("4294967296"));
    EXPECT_FALSE(parse_u32("-1"));
    EXPECT_FALSE(parse_u32(""));
    EXPECT_EQ(fit_sacct("abcdefghijkl", 10), "abcdefghi+ ");
    EXPECT_EQ(fit_sacct("ab", -4), "ab   ");
    EXPECT_EQ(or_null(""), "(null)");
}
