// srun_help.cpp - srun's and salloc's --help text.
#include "cli/srun_help.hpp"

#include "cli/help_tail.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kOptions =
    "Parallel run options:\n"
    "  -A, --account=name          the account the job's use is charged to\n"
    "      --bcast[=dest]          copy the executable to each node first (to dest)\n"
    "      --comment=text          a comment kept with the job\n"
    "      --compress[=type]       accepted (--bcast does not compress)\n"
    "  -C, --constraint=list       nodes with these features only\n"
    "      --cpu-bind=type         bind tasks to CPUs (none, cores, threads, map_cpu:, mask_cpu:, "
    "...)\n"
    "      --cpu-freq=freq         accepted, not applied\n"
    "  -c, --cpus-per-task=n       CPUs each task needs\n"
    "      --cpus-per-gpu=n        CPUs for each GPU allocated\n"
    "  -d, --dependency=type:id    start only when the dependency is satisfied\n"
    "  -D, --chdir=path            the working directory of the tasks\n"
    "      --exact                 a step gets exactly the CPUs it asks for\n"
    "  -e, --error=file            where standard error goes (%j, %t, %n, ... expanded)\n"
    "      --exclusive[=user]      whole nodes for the job (within a job: CPUs no other step has)\n"
    "      --export=list           the environment the tasks get (ALL, NONE, NAME=value, ...)\n"
    "  -G, --gpus=n                GPUs for the whole job\n"
    "      --gpu-bind=type         bind tasks to GPUs (closest, map_gpu:, mask_gpu:, single:)\n"
    "      --gpus-per-node=n       GPUs on each node\n"
    "      --gpus-per-socket=n     GPUs on each socket\n"
    "      --gpus-per-task=n       GPUs for each task\n"
    "      --gres=list             generic resources on each node (gpu:2, gpu:a100:1, ...)\n"
    "  -H, --hold                  submit the job held\n"
    "      --het-group=K           run in component K of a heterogeneous job's allocation\n"
    "      --hint=type             compute_bound, memory_bound, multithread, nomultithread\n"
    "  -i, --input=file            where standard input comes from (none, a task id, a file)\n"
    "  -I, --immediate[=secs]      give up if resources are not there at once (within secs)\n"
    "  -J, --job-name=name         the job's name\n"
    "      --jobid=id              run the step in this existing allocation\n"
    "  -K, --kill-on-bad-exit[=0|1]  end the step when a task exits non-zero\n"
    "  -l, --label                 put the task number in front of each line of output\n"
    "  -L, --licenses=names        licenses the job needs (name[:count],...)\n"
    "  -M, --clusters=names        allocate on the first of these clusters the store knows\n"
    "  -m, --distribution=type     how tasks are laid out: block, cyclic, plane=n, arbitrary\n"
    "      --mem=MB                memory on each node\n"
    "      --mem-bind=type         bind tasks to memory (none, local, map_mem:, mask_mem:)\n"
    "      --mem-per-cpu=MB        memory for each CPU\n"
    "      --mem-per-gpu=MB        memory for each GPU\n"
    "      --mincpus=n             at least n CPUs on each node\n"
    "      --mpi=type              the MPI launch protocol (none, pmi2, pmix)\n"
    "      --multi-prog            the executable is a file giving each task's program\n"
    "  -N, --nodes=N[-M]           nodes to run on (at least N, at most M)\n"
    "  -n, --ntasks=n              tasks to run\n"
    "      --ntasks-per-core=n     at most n tasks on each core\n"
    "      --ntasks-per-node=n     tasks on each node\n"
    "      --ntasks-per-socket=n   at most n tasks on each socket\n"
    "      --no-shell              salloc: make the allocation and exit\n"
    "  -O, --overcommit            more tasks than CPUs\n"
    "  -o, --output=file           where standard output goes (%j, %t, %n, ... expanded)\n"
    "      --open-mode=mode        append or truncate the output files\n"
    "      --overlap               the step may share CPUs with other steps\n"
    "  -p, --partition=names       the partitions to run in\n"
    "      --propagate[=rlimits]   the resource limits the tasks inherit from here\n"
    "      --pty                   run task 0 in a pseudo terminal\n"
    "  -q, --qos=name              the job's quality of service\n"
    "  -Q, --quiet                 no informational messages\n"
    "      --reservation=name      run in this reservation\n"
    "      --signal=[R:]num[@time]  send a signal before the time limit\n"
    "  -t, --time=minutes          the time limit\n"
    "      --task-epilog=program   run after each task, as the user\n"
    "      --task-prolog=program   run before each task, as the user\n"
    "      --test-only             say when the job would start; run nothing\n"
    "      --threads-per-core=n    threads of each core to use\n"
    "      --tmp=MB                temporary disk space on each node\n"
    "  -u, --unbuffered            pass output through as it comes\n"
    "  -v, --verbose               say more (-vv: more still)\n"
    "  -W, --wait=secs             end the step secs after the first task ends\n"
    "  -w, --nodelist=hosts        run on these nodes\n"
    "  -x, --exclude=hosts         never run on these nodes\n" DROVER_HELP_TAIL;

} // namespace

std::string srun_help_text(std::string_view prog) {
    std::string head = prog == "salloc" ? "Usage: salloc [OPTIONS...] [command [args...]]\n"
                                        : "Usage: srun [OPTIONS...] executable [args...]\n";
    return head + "\n" + std::string(kOptions);
}

} // namespace drover::cli
