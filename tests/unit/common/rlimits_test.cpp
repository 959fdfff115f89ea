// rlimits_test.cpp - PropagateResourceLimits and SLURM_UMASK: the names slurm.conf and
// --propagate take, which limits a command sends, the variables it puts in the job's environment
// and what a task makes of them (in a child process, so that this one keeps its limits).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.hpp"
#include "common/rlimits.hpp"

namespace drover {
namespace {

using Names = std::vector<std::string>;

TEST(Rlimits, NamesAsSlurmTakesThem) {
    EXPECT_EQ(parse_rlimit_list("ALL").size(), 10u);
    EXPECT_EQ(parse_rlimit_list("none"), Names{});
    EXPECT_EQ(parse_rlimit_list("core, NoFile,core"), (Names{"CORE", "NOFILE"}));
    EXPECT_THROW(parse_rlimit_list("CORE,BOGUS"), ParseError);
    EXPECT_EQ(check_propagate("STACK"), "STACK");
    try {
        check_propagate("stack,heap");
        ADD_FAILURE() << "an unknown limit is refused";
    } catch (const ParseError &e) {
        EXPECT_STREQ(e.what(), "--propagate=stack,heap is not valid.");
    }
}

TEST(Rlimits, WhichLimitsACommandSends) {
    PropagatedLimits all = propagated_limits(std::nullopt, "", "");
    EXPECT_EQ(all.names.size(), 10u) << "Slurm's default is ALL";
    EXPECT_FALSE(all.user);
    EXPECT_EQ(propagated_limits(std::nullopt, "CORE,NPROC", "").names, (Names{"CORE", "NPROC"}));
    PropagatedLimits except = propagated_limits(std::nullopt, "", "CORE,STACK");
    EXPECT_EQ(except.names.size(), 8u);
    EXPECT_EQ(std::count(except.names.begin(), except.names.end(), "CORE"), 0);
    PropagatedLimits opt = propagated_limits(std::string("nofile"), "NONE", "");
    EXPECT_EQ(opt.names, Names{"NOFILE"}) << "--propagate wins over slurm.conf";
    EXPECT_TRUE(opt.user);
    EXPECT_EQ(propagated_limits(std::string(""), "NONE", "").names.size(), 10u)
        << "--propagate alone is ALL";
    EXPECT_EQ(propagated_limits(std::nullopt, "NONE", "").names, Names{});
}

// Runs fn in a child; what it returns comes back (its limits and umask stay the child's).
std::string in_child(const std::function<std::string()> &fn) {
    int p[2];
    if (::pipe(p) != 0) return "pipe failed";
    pid_t pid = ::fork();
    if (pid == 0) {
        ::close(p[0]);
        std::string out = fn();
        (void)!::write(p[1], out.data(), out.size());
        ::_exit(0);
    }
    ::close(p[1]);
    std::string out;
    char buf[512];
    for (ssize_t n; (n = ::read(p[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    ::close(p[0]);
    ::waitpid(pid, nullptr, 0);
    return out;
}

TEST(Rlimits, TheVariablesCarryThisProcesssLimitsAndUmask) {
    std::string got = in_child([] {
        rlimit rl{0, 0};
        ::getrlimit(RLIMIT_CORE, &rl);
        rl.rlim_cur = 0;
        ::setrlimit(RLIMIT_CORE, &rl);
        ::umask(027);
        std::vector<std::pair<std::string, std::string>> env = {{"SLURM_UMASK", "0022"},
                                                                {"HOME", "/root"}};
        put_limit_variables(env, propagated_limits(std::string("CORE"), "", ""));
        std::string out;
        for (const auto &[k, v] : env) out += k + "=" + v + ";";
        return out;
    });
    EXPECT_EQ(got, "HOME=/root;SLURM_RLIMIT_CORE=U0;SLURM_UMASK=0027;");
}

TEST(Rlimits, ATaskTakesThemNoHigherThanTheHardLimit) {
    std::string got = in_child([] {
        rlimit rl{50, 100};
        ::setrlimit(RLIMIT_CORE, &rl);
        std::string said = apply_limit_variables(
            {"SLURM_UMASK=0077", "SLURM_RLIMIT_CORE=80", "SLURM_RLIMIT_FSIZE=junk"});
        ::getrlimit(RLIMIT_CORE, &rl);
        mode_t mask = ::umask(0);
        std::string out =
            std::to_string(rl.rlim_cur) + " " + std::to_string(mask) + " [" + said + "]";
        said = apply_limit_variables({"SLURM_RLIMIT_CORE=U5000"});
        ::getrlimit(RLIMIT_CORE, &rl);
        return out + " " + std::to_string(rl.rlim_cur) + " [" + said + "]";
    });
    EXPECT_EQ(got, "80 63 [] 100 [slurmstepd: error: Can't propagate RLIMIT_CORE of 5000 from "
                   "submit host: Operation not permitted\n]");
}

} // namespace
} // namespace drover
