// json_document_test.cpp - the exact envelope of every --json document: the list under its key,
// the stamps after it, "meta", "errors" and "warnings".
#include <gtest/gtest.h>

#include "cli/json_records.hpp"

using namespace drover;
using namespace drover::cli;

namespace {

constexpr int64_t kNow = 1700000000;

constexpr const char *kLastUpdate = R"(  "last_update": {
    "set": true,
    "infinite": false,
    "number": 1700000000
  },
)";

constexpr const char *kMetaErrorsWarnings = R"(  "meta": {
    "plugin": {
      "type": "",
      "name": "",
      "data_parser": ""
    },
    "client": {
      "source": ""
    },
    "command": [],
    "slurm": {
      "version": {
        "major": 23,
        "micro": 0,
        "minor": 11
      },
      "release": "23.11.0",
      "cluster": ""
    }
  },
  "errors": [],
  "warnings": []
}
)";

std::string envelope(const char *list_key, const std::string &stamps) {
    return std::string("{\n  \"") + list_key + "\": [],\n" + stamps + kMetaErrorsWarnings;
}

} // namespace

TEST(JsonDocument, JobsCarryBackfillAndUpdateStamps) {
    std::string backfill = "  \"last_backfill\": {\n    \"set\": false,\n    \"infinite\": false,\n"
                           "    \"number\": 0\n  },\n";
    EXPECT_EQ(jobs_json({}, kNow), envelope("jobs", backfill + kLastUpdate));
}

TEST(JsonDocument, NodesAndPartitionsCarryTheUpdateStamp) {
    EXPECT_EQ(nodes_json({}, kNow), envelope("nodes", kLastUpdate));
    EXPECT_EQ(partitions_json({}, kNow), envelope("partitions", kLastUpdate));
}

TEST(JsonDocument, SinfoAndSacctCarryNoStamp) {
    EXPECT_EQ(sinfo_json({}, kNow), envelope("sinfo", ""));
    EXPECT_EQ(acct_jobs_json({}, kNow), envelope("jobs", ""));
}
