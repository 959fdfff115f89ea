// shepherd_test.cpp - the one exec path of the node (noded/shepherd.hpp) without a daemon: a step's
// tasks and a batch script run by the supervisor in a forked child, and the records it writes.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "noded/shepherd.hpp"

namespace drover::noded {
namespace {

namespace fs = std::filesystem;

class ShepherdTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("drover_shepherd_test." + std::to_string(::getpid()));
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    ShepherdSpec spec(bool batch, std::vector<std::string> argv) {
        ShepherdSpec s;
        s.batch = batch;
        s.job_id = 7;
        s.user = {uint32_t(::getuid()), uint32_t(::getgid()), "root", {unsigned(::getgid())}};
        s.work_dir = dir.string();
        s.argv = std::move(argv);
        s.env = {"PATH=/usr/bin:/bin"};
        return s;
    }
    // Runs the supervisor to its end; the records it wrote.
    std::vector<ShepherdRecord> run(ShepherdSpec s) {
        std::string records = (dir / "records").string();
        s.record_fd = ::open(records.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        pid_t pid = ::fork();
        if (pid == 0) run_shepherd(s);
        ::close(s.record_fd);
        int status = 0;
        ::waitpid(pid, &status, 0);
        return read_records(records);
    }
    // The batch script's one task, its output and error in the file named out.
    ShepherdTask batch_task(const std::string &out, const std::string &err) {
        ShepherdTask task;
        task.in_path = "/dev/null";
        task.out_path = (dir / out).string();
        task.err_path = (dir / err).string();
        return task;
    }
    std::string read(const std::string &name) {
        std::ifstream f(dir / name);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    }

    fs::path dir;
};

TEST_F(ShepherdTest, StepTasksGetTheirVariables) {
    ShepherdSpec s = spec(false, {"sh", "-c", "echo $SLURM_PROCID.$SLURM_LOCALID"});
    for (uint32_t t : {3u, 4u}) {
        ShepherdTask task;
        task.task_id = t;
        task.local_id = t - 3;
        task.out_path = (dir / ("out" + std::to_string(t))).string();
        task.err_path = task.out_path;
        s.tasks.push_back(task);
    }
    auto records = run(s);
    ASSERT_EQ(records.size(), 4u); // Started, Started, Exited, Exited
    for (const auto &r : records)
        if (r.kind == ShepherdRecord::Exited) {
            EXPECT_EQ(r.value, 0);
        }
    EXPECT_EQ(read("out3"), "3.0\n");
    EXPECT_EQ(read("out4"), "4.1\n");
}

TEST_F(ShepherdTest, ABatchScriptIsTaskZeroOfItsNode) {
    ShepherdSpec s = spec(true, {"/bin/sh", "-c", "echo [$SLURM_PROCID$SLURM_LOCALID]; exit 3"});
    s.tasks.push_back(batch_task("slurm-7.out", "slurm-7.out"));
    auto records = run(s);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[1].kind, ShepherdRecord::Exited);
    EXPECT_EQ(records[1].value, 3 << 8);
    EXPECT_EQ(read("slurm-7.out"), "[00]\n");
}

TEST_F(ShepherdTest, ABatchScriptThatCannotRunExits127) {
    ShepherdSpec s = spec(true, {(dir / "missing").string()});
    s.tasks.push_back(batch_task("slurm-7.out", "slurm-7.out"));
    auto records = run(s);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[1].value, 127 << 8);
    EXPECT_NE(read("slurm-7.out").find("cannot execute"), std::string::npos);
}

TEST_F(ShepherdTest, ABatchStreamThatCannotOpenIsRecorded) {
    ShepherdSpec s = spec(true, {"/bin/true"});
    s.tasks.push_back(batch_task("no/such/dir/out", "err"));
    auto records = run(s);
    // Started and NoStream in either order (the supervisor and its task both write), then Exited.
    ASSERT_EQ(records.size(), 3u);
    const ShepherdRecord &none =
        records[0].kind == ShepherdRecord::NoStream ? records[0] : records[1];
    EXPECT_EQ(none.kind, ShepherdRecord::NoStream);
    EXPECT_EQ(none.detail, 1);
    EXPECT_EQ(none.value, ENOENT);
    EXPECT_EQ(records[2].kind, ShepherdRecord::Exited);
    EXPECT_EQ(records[2].value, 1 << 8);
    EXPECT_FALSE(fs::exists(dir / "err")); // streams after the failed one are not opened
}

} // namespace
} // namespace drover::noded
