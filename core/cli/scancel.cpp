// scancel.cpp - cancel or signal jobs by id or by filter with one JobSignalRequest.
#include <unistd.h>

#include "cli/command_main.hpp"
#include "cli/scancel_args.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

constexpr std::string_view kProg = "scancel";

constexpr const char *kHelp =
    "Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]\n"
    "  -b, --batch                     signal batch shell for specified job\n"
    "  -f, --full                      signal batch shell and all steps for specified job\n"
    "      --me                        equivalent to --user=<my username>\n"
    "  -n, --name=job_name             act only on jobs with this name\n"
    "  -p, --partition=partition       act only on jobs in this partition\n"
    "  -Q, --quiet                     disable warnings\n"
    "  -s, --signal=name | integer     signal to send to job, default is SIGKILL\n"
    "  -t, --state=states              act only on jobs in this state.  Valid job\n"
    "                                  states are PENDING, RUNNING and SUSPENDED\n"
    "  -u, --user=user_name            act only on jobs of this user\n"
    "  -V, --version                   output version information and exit\n"
    "  -v, --verbose                   verbosity level\n"
    "\n"
    "Help options:\n"
    "  --help                          show this help message\n"
    "  --usage                         display brief usage message\n";

constexpr const char *kUsage =
    "Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]\n"
    "               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]\n"
    "               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]\n"
    "               [-V] [-v] [-w hosts...] [--wckey=wckey] [job_id[_array_id][.step_id]]\n";

constexpr CommandText kText{kProg, kHelp, kUsage};

int run(const ScancelArgs &a) {
    if (a.job_ids.empty() && !a.has_filter()) {
        print_error(kProg, "No job identification provided");
        return 1;
    }
    uint32_t uid = 0xfffffffe;
    if (a.user) {
        auto u = lookup_user(*a.user);
        if (!u) {
            print_error(kProg, "Invalid user name: " + *a.user);
            return 1;
        }
        uid = *u;
    } else if (a.me) {
        uid = static_cast<uint32_t>(::getuid());
    }
    if (a.verbose)
        for (uint32_t id : a.job_ids) write_err("scancel: Terminating job " + str_u(id) + "\n");

    flatbuffers::FlatBufferBuilder fbb;
    auto ids = fbb.CreateVector(a.job_ids);
    auto name = a.name ? fbb.CreateString(*a.name) : 0;
    auto states = fbb.CreateVector(a.states);
    auto part = a.partition ? fbb.CreateString(*a.partition) : 0;
    proto::JobSignalRequestBuilder b(fbb);
    b.add_job_ids(ids);
    b.add_signal(a.signal.value_or(9));
    b.add_user_id(uid);
    b.add_name(name);
    b.add_states(states);
    b.add_partition(part);
    b.add_batch_only(a.batch);
    b.add_full(a.full);
    auto req = b.Finish();

    net::Reply reply;
    const auto *r = ask_ctld<proto::JobSignalResponse>(
        reply, fbb, proto::Body::JobSignalRequest, req.Union(), [&](const net::RpcError &e) {
            if (a.job_ids.size() == 1)
                print_error(kProg, "Kill job error on job id " + str_u(a.job_ids[0]) + ": " + e.what());
            else
                print_error(kProg, e.what());
        });
    if (!r) return 1;
    int rc = 0;
    if (r->results()) {
        for (const auto *res : *r->results()) {
            if (res->rc() == 0) continue;
            std::string id = res->node() ? res->node()->str() : "?";
            std::string msg = res->message() ? res->message()->str() : "error";
            print_error(kProg, "Kill job error on job id " + id + ": " + msg);
            rc = 1;
        }
    }
    return rc;
}

}  // namespace

int scancel_main(std::span<const std::string> args) {
    return command_main(kText, args, parse_scancel_args, run);
}

}  // namespace drover::cli
