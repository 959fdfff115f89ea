// power_test.cpp - the power saving programs as the controller runs them (real processes on a
// real loop: arguments, environment, SLURM_RESUME_FILE, output, exit status, the time limit) and
// SLURM_RESUME_FILE's JSON.
#include <gtest/gtest.h>

#include <unistd.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>

#include "ctld/power/program_runner.hpp"
#include "ctld/power/resume_file.hpp"

namespace drover::ctld {
namespace {

// A shell script in a fresh directory; removed with it.
class Script {
  public:
    explicit Script(const std::string &body) {
        char tmpl[] = "/tmp/drover-power-test.XXXXXX";
        dir_ = ::mkdtemp(tmpl);
        path_ = dir_ + "/prog.sh";
        std::ofstream(path_) << "#!/bin/sh\n" << body << "\n";
        ::chmod(path_.c_str(), 0755);
    }
    ~Script() { std::system(("rm -rf " + dir_).c_str()); }
    const std::string &path() const { return path_; }
    const std::string &dir() const { return dir_; }
    std::string read(const std::string &name) const {
        std::ifstream in(dir_ + "/" + name);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

  private:
    std::string dir_, path_;
};

// Running, as opposed to gone or a zombie.
bool alive(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pid_field, comm, state;
    return stat >> pid_field >> comm >> state && state != "Z";
}

int run(const ProgramRun &r) {
    boost::asio::io_context io;
    ProgramRunner runner(io, ::getuid(), ::getgid());
    int status = -2;
    EXPECT_GT(runner.start(r, [&](int s) { status = s; }), 0);
    io.run();
    EXPECT_EQ(runner.running(), 0u);
    return status;
}

TEST(ProgramRunner, PassesTheHostlistSlurmsEnvironmentAndTheResumeFile) {
    Script s("echo \"$0 $1 $SLURM_CONF\" > \"$(dirname \"$0\")/args\"\n"
             "cat \"$SLURM_RESUME_FILE\" > \"$(dirname \"$0\")/file\"\n"
             "echo \"PATH=${PATH:-unset} HOME=${HOME:-unset}\" >> \"$(dirname \"$0\")/args\"");
    ProgramRun r{"ResumeProgram",
                 s.path(),
                 {"n[1-3]"},
                 {{"SLURM_CONF", "/etc/x.conf"}},
                 "{\"all_nodes_resume\":\"n[1-3]\"}",
                 std::chrono::seconds(30)};
    EXPECT_EQ(run(r), 0);
    std::string args = s.read("args");
    EXPECT_NE(args.find(s.path() + " n[1-3] /etc/x.conf"), std::string::npos) << args;
    EXPECT_NE(args.find("HOME=unset"), std::string::npos) << "only Slurm's variables: " << args;
    EXPECT_EQ(s.read("file"), "{\"all_nodes_resume\":\"n[1-3]\"}");
}

TEST(ProgramRunner, ReportsTheExitStatus) {
    Script s("echo some output; echo more >&2; exit 3");
    ProgramRun r{"SuspendProgram", s.path(), {"n1"}, {}, "", std::chrono::seconds(30)};
    int status = run(r);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 3);
}

TEST(ProgramRunner, KillsAProgramPastItsTimeWithItsChildren) {
    Script s("sleep 300 & echo $! > \"$(dirname \"$0\")/child\"; wait");
    ProgramRun r{"ResumeProgram", s.path(), {"n1"}, {}, "", std::chrono::seconds(1)};
    auto t0 = std::chrono::steady_clock::now();
    int status = run(r);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
    ASSERT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    pid_t child = std::atoi(s.read("child").c_str());
    ASSERT_GT(child, 0);
    // The sleep was in the program's process group: killed too (left a zombie when nothing
    // reaps orphans here).
    for (int i = 0; i < 100 && alive(child); ++i) ::usleep(50000);
    EXPECT_FALSE(alive(child));
}

TEST(ProgramRunner, DoesNotWaitForWhatTheProgramLeavesRunning) {
    // A resume program starts a daemon that keeps the output pipe open: the program's end counts.
    Script s("sleep 30 & echo $! > \"$(dirname \"$0\")/child\"; exit 0");
    ProgramRun r{"ResumeProgram", s.path(), {"n1"}, {}, "", std::chrono::seconds(60)};
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(run(r), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(25));
    ::kill(std::atoi(s.read("child").c_str()), SIGKILL);
}

TEST(ProgramRunner, RunnableNeedsAnAbsolutePathToAnExecutableFile) {
    std::string why;
    EXPECT_TRUE(ProgramRunner::runnable("/bin/true", &why));
    EXPECT_FALSE(ProgramRunner::runnable("bin/true", &why));
    EXPECT_EQ(why, "not an absolute path");
    EXPECT_FALSE(ProgramRunner::runnable("/etc", &why));
    EXPECT_EQ(why, "not a regular file");
    EXPECT_FALSE(ProgramRunner::runnable("/etc/hostname-of-nothing", &why));
    Script s("true");
    ::chmod(s.path().c_str(), 0644);
    EXPECT_FALSE(ProgramRunner::runnable(s.path(), &why));
    EXPECT_EQ(why, "not executable");
}

TEST(ResumeFile, NamesTheNodesAndEachJobAsSlurmsGuideShows) {
    std::string json = resume_file_json(
        "cloud[1-3]", {{140814, "", "c1,c2", "cloud[1-4]", "cloud[1-3]", "OK", "cloud", "r1"},
                       {140815, "", "", "cloud[1-2]", "cloud[1-2]", "NO", "cloud", ""}});
    std::string flat;
    for (char c : json)
        if (c != ' ' && c != '\n') flat += c;
    EXPECT_EQ(flat, "{\"all_nodes_resume\":\"cloud[1-3]\",\"jobs\":["
                    "{\"extra\":null,\"features\":\"c1,c2\",\"job_id\":140814,"
                    "\"nodes_alloc\":\"cloud[1-4]\",\"nodes_resume\":\"cloud[1-3]\","
                    "\"oversubscribe\":\"OK\",\"partition\":\"cloud\",\"reservation\":\"r1\"},"
                    "{\"extra\":null,\"features\":null,\"job_id\":140815,"
                    "\"nodes_alloc\":\"cloud[1-2]\",\"nodes_resume\":\"cloud[1-2]\","
                    "\"oversubscribe\":\"NO\",\"partition\":\"cloud\",\"reservation\":null}]}");
}

} // namespace
} // namespace drover::ctld
