// loader_test.cpp - PluginSet refuses each broken plugin with its exact line, and binds good ones.
#include <cctype>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "test_support.hpp"

namespace drover::plugin::test {
namespace {

std::string abi(int major, int minor) {
    return std::to_string(major) + "." + std::to_string(minor);
}

// The one line PluginSet::load_file throws for file (in tests/plugins/lib) loaded as id.
std::string refusal(const std::string &file, const std::string &id) {
    Config conf;
    PluginSet set(conf, "ctld");
    try {
        set.load_file(kTestPluginDir + "/" + file, id);
    } catch (const LoadError &e) {
        return e.what();
    }
    return "(loaded)";
}

// "no_such_file.so" -> "NoSuchFile" (GoogleTest names have no underscores).
std::string test_name(const std::string &file) {
    std::string name;
    bool upper = true;
    for (char c : file.substr(0, file.find('.'))) {
        if (c == '_') {
            upper = true;
            continue;
        }
        name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return name;
}

struct Refusal {
    const char *file;
    const char *id;
    std::string expected; // after "<path>: "
};

class PluginLoaderRefuses : public ::testing::TestWithParam<Refusal> {};

TEST_P(PluginLoaderRefuses, WithOneExactLine) {
    const Refusal &r = GetParam();
    const std::string path = kTestPluginDir + "/" + r.file;
    EXPECT_EQ(refusal(r.file, r.id), path + ": " + r.expected);
}

INSTANTIATE_TEST_SUITE_P(
    PluginLoader, PluginLoaderRefuses,
    ::testing::Values(
        Refusal{"no_entry.so", "select/no_entry",
                "no drover_plugin_entry symbol: not a Drover plugin"},
        Refusal{"null_entry.so", "select/null_entry",
                "drover_plugin_entry returned NULL: the plugin refuses host ABI " +
                    abi(DROVER_ABI_MAJOR, DROVER_ABI_MINOR)},
        Refusal{"wrong_major.so", "select/wrong_major",
                "ABI major " + std::to_string(DROVER_ABI_MAJOR + 1) + ", this core speaks " +
                    std::to_string(DROVER_ABI_MAJOR)},
        Refusal{"newer_minor.so", "select/newer_minor",
                "built for ABI " + abi(DROVER_ABI_MAJOR, DROVER_ABI_MINOR + 1) +
                    ", newer than this core's " + abi(DROVER_ABI_MAJOR, DROVER_ABI_MINOR)},
        Refusal{"short_desc.so", "select/short_desc",
                "descriptor is " + std::to_string(offsetof(drover_plugin_desc, init)) +
                    " bytes, expected at least " + std::to_string(sizeof(drover_plugin_desc))},
        Refusal{"null_ops.so", "select/null_ops", "select/null_ops has no operations table"},
        Refusal{"short_ops.so", "select/short_ops",
                "operations table is 2 bytes, expected at least 4"},
        Refusal{"missing_op.so", "select/missing_op",
                "select/missing_op does not provide job_test, which every select plugin must"},
        Refusal{"type_mismatch.so", "select/type_mismatch",
                "is sched/type_mismatch, expected select/type_mismatch"},
        Refusal{"init_fails.so", "select/init_fails",
                "select/init_fails init failed: licence server unreachable"},
        Refusal{"init_throws.so", "select/init_throws",
                "select/init_throws init threw: init exploded"},
        Refusal{"unresolved.so", "select/unresolved",
                "cannot load: undefined symbol: drover_test_no_such_function"},
        Refusal{"no_such_file.so", "select/no_such_file",
                "cannot load: cannot open shared object file: No such file or directory"},
        Refusal{"future_select.so", "select/other_name",
                "is select/future, expected select/other_name"}),
    [](const ::testing::TestParamInfo<Refusal> &info) { return test_name(info.param.file); });

TEST(PluginLoader, RefusesMalformedIdsAndUnknownTypes) {
    Config conf;
    PluginSet set(conf, "ctld");
    EXPECT_THROW(
        {
            try {
                set.load("linear");
            } catch (const LoadError &e) {
                EXPECT_STREQ(e.what(),
                             "linear: not a plugin name (expected type/name, as in select/linear)");
                throw;
            }
        },
        LoadError);
    EXPECT_THROW(
        {
            try {
                set.load("frob/x");
            } catch (const LoadError &e) {
                EXPECT_STREQ(e.what(), "frob/x: unknown plugin type frob (expected select, sched, "
                                       "auth, accounting, switch, proctrack, priority or "
                                       "job_submit)");
                throw;
            }
        },
        LoadError);
}

TEST(PluginLoader, SaysWhereItLookedForAMissingPlugin) {
    Config conf;
    conf.plugin_dir = "/nonexistent/a::/nonexistent/b";
    PluginSet set(conf, "ctld");
    EXPECT_EQ(set.search_dirs(), (std::vector<std::string>{"/nonexistent/a", "/nonexistent/b"}));
    try {
        set.load("select/linear");
        FAIL() << "loaded";
    } catch (const LoadError &e) {
        EXPECT_STREQ(e.what(),
                     "select/linear: select_linear.so not found in /nonexistent/a:/nonexistent/b");
    }
}

TEST(PluginLoader, SearchesTheBuildTreeThenTheInstallTreeByDefault) {
    Config conf;
    PluginSet set(conf, "ctld");
    // This test runs from the build tree; an installed program's search is package_test.sh's.
    EXPECT_EQ(set.search_dirs(),
              (std::vector<std::string>{kRealPluginDir, DROVER_TEST_INSTALL_PLUGIN_DIR}));
    set.load("select/linear");
    EXPECT_EQ(set.select().path, kRealPluginDir + "/select_linear.so");
}

TEST(PluginLoader, NamesFilesAsSlurmDoes) {
    EXPECT_EQ(plugin_file_name("select/linear"), "select_linear.so");
    EXPECT_EQ(plugin_file_name("proctrack/pgid"), "proctrack_pgid.so");
}

TEST(PluginLoader, LoadsAPluginWithALongerTableAndIgnoresTheExtraOp) {
    Config conf;
    PluginSet set(conf, "ctld");
    set.load_file(kTestPluginDir + "/future_select.so", "select/future");
    const auto &b = set.select();
    ASSERT_TRUE(b);
    EXPECT_EQ(b.id, "select/future");
    EXPECT_EQ(b.ops.struct_size, sizeof(drover_select_ops));
    ASSERT_NE(b.ops.job_test, nullptr);
    ASSERT_NE(b.ops.job_cpus_on_node, nullptr);
    EXPECT_EQ(b.ops.job_test(b.state, nullptr, {}, 0, nullptr, nullptr), DROVER_EBUSY);
    EXPECT_EQ(b.ops.job_cpus_on_node(b.state, 1, 0), 7u);
}

TEST(PluginLoader, LoadsAPluginWithAShorterTableAndTheMissingOpIsNull) {
    Config conf;
    PluginSet set(conf, "ctld");
    set.load_file(kTestPluginDir + "/old_select.so", "select/old");
    const auto &b = set.select();
    ASSERT_TRUE(b);
    EXPECT_EQ(b.ops.struct_size, offsetof(drover_select_ops, job_cpus_on_node));
    EXPECT_EQ(b.ops.job_cpus_on_node, nullptr);
    ASSERT_NE(b.ops.job_test, nullptr);
    EXPECT_EQ(b.ops.job_test(b.state, nullptr, {}, 0, nullptr, nullptr), DROVER_EBUSY);
}

TEST(PluginLoader, LoadsAnAccountingPluginFromSdk13WithoutNodeEvents) {
    Config conf;
    PluginSet set(conf, "ctld");
    set.load_file(kTestPluginDir + "/old_accounting.so", "accounting/old");
    const auto &b = set.acct();
    ASSERT_TRUE(b);
    EXPECT_EQ(b.ops.struct_size, offsetof(drover_acct_ops, node_event));
    EXPECT_EQ(b.ops.node_event, nullptr);
    EXPECT_EQ(b.ops.node_event_query, nullptr);
    ASSERT_NE(b.ops.job_event, nullptr);
    EXPECT_EQ(b.ops.job_event(b.state, DROVER_ACCT_JOB_SUBMIT, nullptr, nullptr), DROVER_OK);
}

TEST(PluginLoader, RefusesASecondPluginOfTheSameType) {
    Config conf;
    PluginSet set(conf, "ctld");
    set.load_file(kTestPluginDir + "/future_select.so", "select/future");
    const std::string old_path = kTestPluginDir + "/old_select.so";
    try {
        set.load_file(old_path, "select/old");
        FAIL() << "loaded";
    } catch (const LoadError &e) {
        EXPECT_EQ(std::string(e.what()), old_path + ": a select plugin is already loaded " +
                                             "(select/future from " + kTestPluginDir +
                                             "/future_select.so)");
    }
    EXPECT_EQ(set.select().id, "select/future"); // the first one is untouched
}

TEST(PluginLoader, AFailedLoadLeavesNothingBound) {
    Config conf;
    PluginSet set(conf, "ctld");
    EXPECT_THROW(set.load_file(kTestPluginDir + "/init_fails.so", "select/init_fails"), LoadError);
    EXPECT_FALSE(set.select());
    set.load_file(kTestPluginDir + "/old_select.so", "select/old");
    EXPECT_TRUE(set.select());
}

TEST(PluginLoader, GivesTheHostApiAndFinisInReverseLoadOrder) {
    TempDir dir;
    Config conf;
    conf.raw["testpluginlog"] = dir / "log";
    {
        PluginSet set(conf, "noded");
        set.load_file(kTestPluginDir + "/order_select.so", "select/order");
        set.load_file(kTestPluginDir + "/order_sched.so", "sched/order");
        EXPECT_TRUE(set.select());
        EXPECT_TRUE(set.sched());
    }
    std::ifstream in(dir / "log");
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), "init select/order role=noded\n"
                          "init sched/order role=noded\n"
                          "fini sched/order\n"
                          "fini select/order\n");
}

TEST(PluginLoader, LoadsEveryInTreePluginByIdAndMapsSlurmNames) {
    TempDir dir;
    Config conf = real_plugin_config();
    conf.raw["accountingstorageloc"] = dir / "acct";
    PluginSet set(conf, "ctld");
    set.load("select/linear");
    set.load("sched/builtin");
    set.load("accounting_storage/lmdb"); // Slurm's spelling of the type
    set.load("switch/none");
    set.load("proctrack/pgid");
    EXPECT_EQ(set.select().id, "select/linear");
    EXPECT_EQ(set.sched().id, "sched/builtin");
    EXPECT_EQ(set.acct().id, "accounting/lmdb");
    EXPECT_EQ(set.switch_().id, "switch/none");
    EXPECT_EQ(set.proctrack().id, "proctrack/pgid");
    EXPECT_EQ(set.sched().ops.job_priority, nullptr);
    EXPECT_EQ(set.acct().path, kRealPluginDir + "/accounting_lmdb.so");
}

} // namespace
} // namespace drover::plugin::test
