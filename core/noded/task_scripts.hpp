// task_scripts.hpp - TaskProlog and TaskEpilog (slurm.conf) and srun's --task-prolog and
// --task-epilog, as Slurm runs them: as the job's user, with the task's environment, for every
// task (a batch script included). Before the task: TaskProlog, then srun's; what a prolog prints
// changes the task's environment ("export NAME=value", "unset NAME") or goes to the task's
// standard output ("print text"). After the task: srun's, then TaskEpilog.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "noded/privileges.hpp"

namespace drover {
struct Config;
}

namespace drover::noded {

struct TaskScripts {
    std::vector<std::string> prologs; // in the order they run
    std::vector<std::string> epilogs;
};

// The scripts for a step whose environment is env: slurm.conf's TaskProlog/TaskEpilog and srun's
// (SLURM_TASK_PROLOG / SLURM_TASK_EPILOG in the step's environment).
TaskScripts task_scripts(const Config &conf, const std::vector<std::string> &env);

// A task prolog's output applied to env; returns what it asked to print (lines, each ending in a
// newline). Other lines are ignored, as Slurm does.
std::string apply_prolog_output(std::string_view out, std::vector<std::string> &env);

// In the task's process (as the user, streams wired): runs the prologs in turn with env, which
// each may change; what they print goes to the task's standard output.
void run_task_prologs(const std::vector<std::string> &prologs, std::vector<std::string> &env);

// In the step's supervisor (root) once a task has ended: runs the epilogs in turn as user with
// the task's environment, waiting for each; their output is discarded.
void run_task_epilogs(const std::vector<std::string> &epilogs, const std::vector<std::string> &env,
                      const RunAs &user, const std::string &work_dir);

} // namespace drover::noded
